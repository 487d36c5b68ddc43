#include "analyze/costs.hpp"

#include <algorithm>
#include <limits>

#include "sim/program/message_ops.hpp"

namespace augur::analyze {

MessageCosts::MessageCosts(const sim::Network* network, const sim::Machine* machine)
    : network_(network), machine_(machine) {
  if (machine_) router_ = std::make_unique<sim::Router>(*machine_);
}

double MessageCosts::message(int src, int dst, double bytes) const {
  if (router_) {
    const int from = machine_->node_of(src), to = machine_->node_of(dst);
    const auto route = router_->route(from, to);
    double narrowest = std::numeric_limits<double>::infinity();
    for (auto c : route.channels) narrowest = std::min(narrowest, router_->capacity(c));
    return route.latency + (route.channels.empty() ? 0 : bytes / narrowest);
  }
  if (!network_) return 0;
  return network_->between(src, dst).receive_end(0, 0, false, bytes);
}

double MessageCosts::receive_overhead(int src, int dst, double bytes) const {
  return network_ ? network_->between(src, dst).recvmin(bytes) : 0;
}

double MessageCosts::collective(std::string_view name, std::span<const int> members, double bytes, bool is_root) const {
  if (!network_ || !network_->prices_collectives()) return std::numeric_limits<double>::infinity();
  const int p = static_cast<int>(members.size());
  if (network_->places_ranks()) return network_->collective_duration(name, p, network_->shape_of(members), bytes, is_root);
  return network_->collective_duration(name, p, bytes, is_root);
}

namespace {

double call_on(const sim::Network& net, std::string_view name, double bytes) {
  using timing::SendMode;
  double nic_free = 0;
  const sim::MessageOp* m = sim::find_message_model_name(name);
  if (m && m->kind == sim::OpKind::isend) return net.isend(nic_free, SendMode::standard, 0, bytes).returns;
  if (m && m->kind == sim::OpKind::irecv) return net.irecv_post(0);
  if (!m || m->kind != sim::OpKind::send) return 0;
  const SendMode mode = m->mode;
  if (net.waits_for_receiver(mode, bytes)) return net.waiting_send_end(0, 0, bytes);
  return net.send_end(nic_free, mode, 0, bytes);
}

}  // namespace

double MessageCosts::call(std::string_view name, int rank, double bytes) const {
  if (!network_) return 0;
  const sim::Network& on_node = network_->between(rank, rank);
  const double between_nodes = call_on(*network_, name, bytes);
  return &on_node == network_ ? between_nodes : std::min(between_nodes, call_on(on_node, name, bytes));
}

}  // namespace augur::analyze
