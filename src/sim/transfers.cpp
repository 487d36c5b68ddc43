#include "sim/transfers.hpp"

#include <algorithm>
#include <limits>

namespace augur::sim {
namespace {

std::vector<double> capacities(const Router& router) {
  std::vector<double> c(router.channels());
  for (std::uint32_t i = 0; i < c.size(); ++i) c[i] = router.capacity(i);
  return c;
}

}  // namespace

Transfers::Transfers(const Machine& machine) : machine_(machine), router_(machine), solver_(capacities(router_)) {}

int Transfers::node_of(int rank) {
  if (rank >= static_cast<int>(nodes_.size())) {
    const auto from = static_cast<int>(nodes_.size());
    nodes_.resize(rank + 1);
    for (int r = from; r <= rank; ++r) nodes_[r] = machine_.node_of(r);
  }
  return nodes_[rank];
}

void Transfers::start(double now, int src_rank, int dst_rank, double bytes, std::uint32_t message) {
  const auto route = router_.route(node_of(src_rank), node_of(dst_rank));
  const auto id = solver_.start(now, route.channels, bytes);
  if (id >= flows_.size()) flows_.resize(id + 1);
  flows_[id] = {message, route.latency};
}

std::vector<Transfers::Arrival> Transfers::finish_next() {
  std::vector<Arrival> out;
  for (auto id : solver_.finish_next()) out.push_back({flows_[id].first, solver_.now() + flows_[id].second});
  return out;
}

double Transfers::alone(int src_rank, int dst_rank, double bytes) {
  const auto route = router_.route(node_of(src_rank), node_of(dst_rank));
  double narrowest = std::numeric_limits<double>::infinity();
  for (auto c : route.channels) narrowest = std::min(narrowest, router_.capacity(c));
  return route.latency + (route.channels.empty() ? 0 : bytes / narrowest);
}

}  // namespace augur::sim
