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

Transfers::Transfers(const Machine& machine)
    : machine_(machine), router_(machine), solver_(capacities(router_)), latest_(machine.nodes()) {}

int Transfers::node_of(int rank) {
  if (rank >= static_cast<int>(nodes_.size())) {
    const auto from = static_cast<int>(nodes_.size());
    nodes_.resize(rank + 1);
    for (int r = from; r <= rank; ++r) nodes_[r] = machine_.node_of(r);
  }
  return nodes_[rank];
}

const Route& Transfers::route(int src_rank, int dst_rank) {
  const int from = node_of(src_rank), to = node_of(dst_rank);
  auto& latest = latest_[from];
  if (latest.to == to) return *latest.route;
  const auto key = std::uint64_t(std::uint32_t(from)) << 32 | std::uint32_t(to);
  auto it = routes_.find(key);
  if (it == routes_.end()) {
    if (routes_.size() >= kMaxRoutes) {
      routes_.clear();
      std::fill(latest_.begin(), latest_.end(), Latest{});
    }
    it = routes_.emplace(key, router_.route(from, to)).first;
  }
  latest = {to, &it->second};
  return it->second;
}

void Transfers::start(double now, int src_rank, int dst_rank, double bytes, std::uint32_t message) {
  const auto& r = route(src_rank, dst_rank);
  // Before the solver, so that nothing but what the rest needs is kept across its call.
  if (usage_) [[unlikely]]
    usage_->start(message, now, r.channels, bytes);
  const auto id = solver_.start(now, r.channels, bytes);
  if (id >= flows_.size()) flows_.resize(id + 1);
  flows_[id] = {message, r.latency};
}

const std::vector<Transfers::Arrival>& Transfers::finish_next() {
  arrivals_.clear();
  const auto& done = solver_.finish_next();
  for (auto id : done) arrivals_.push_back({flows_[id].first, solver_.now() + flows_[id].second});
  if (usage_) [[unlikely]]
    for (auto id : done) usage_->finish(flows_[id].first, solver_.now());
  return arrivals_;
}

double Transfers::alone(int src_rank, int dst_rank, double bytes) {
  const auto& r = route(src_rank, dst_rank);
  double narrowest = std::numeric_limits<double>::infinity();
  for (auto c : r.channels) narrowest = std::min(narrowest, router_.capacity(c));
  return r.latency + (r.channels.empty() ? 0 : bytes / narrowest);
}

}  // namespace augur::sim
