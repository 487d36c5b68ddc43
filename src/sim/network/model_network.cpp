#include "sim/network/network.hpp"

#include "timing/steps.hpp"

namespace augur::sim {

ModelNetwork::ModelNetwork(const model::Model& model, model::Bound bound)
    : rules_(model, bound), crosses_(model.find("exchange") != nullptr) {}

ModelNetwork::ModelNetwork(const model::Model& model, model::Bound bound, timing::Placement placement)
    : ModelNetwork(model, bound) {
  if (!model.nodes) return;
  on_node_model_ = std::make_unique<model::Model>(model.on_node_level());
  on_node_ = std::make_unique<ModelNetwork>(*on_node_model_, bound);
  levels_ = std::make_unique<timing::LevelRules>(model, std::move(placement), bound);
}

double ModelNetwork::send_end(double&, timing::SendMode mode, double start, double bytes) const {
  return timing::send_call_end(rules_, mode, start, bytes);
}

// MPI_Isend returns after isend_post; its request completes as the blocking send would.
Network::Isend ModelNetwork::isend(double&, timing::SendMode mode, double start, double bytes) const {
  return {start + rules_.isend_post(bytes), timing::send_call_end(rules_, mode, start, bytes)};
}

// An eager message is there after its transit; a rendezvous announces itself at once (its
// envelope is small) and moves the data when the receive is posted.
double ModelNetwork::arrival(double send_start, bool rendezvous, double bytes) const {
  return rendezvous ? send_start : send_start + rules_.transit(bytes);
}

}  // namespace augur::sim
