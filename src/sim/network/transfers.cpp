#include "sim/network/transfers.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>

namespace augur::sim {
namespace {

std::vector<double> capacities(const Router& router) {
  std::vector<double> c(router.channels());
  for (std::uint32_t i = 0; i < c.size(); ++i) c[i] = router.capacity(i);
  return c;
}

}  // namespace

Sharing parse_sharing(std::string_view name) {
  if (name == "fair") return Sharing::fair;
  if (name == "rtt") return Sharing::rtt;
  throw std::invalid_argument("sharing must be fair or rtt, not '" + std::string(name) + "'");
}

Transfers::Transfers(const Machine& machine, Sharing sharing, OnNodeTransit on_node)
    : machine_(machine),
      router_(machine),
      solver_(capacities(router_)),
      sharing_(sharing),
      on_node_(std::move(on_node)),
      latest_(machine.nodes()) {}

int Transfers::new_node_of(int rank) {
  const auto from = static_cast<int>(nodes_.size());
  nodes_.resize(rank + 1);
  for (int r = from; r <= rank; ++r) nodes_[r] = machine_.node_of(r);
  return nodes_[rank];
}

const Route& Transfers::route(int src_rank, int dst_rank) {
  const int from = node_of(src_rank), to = node_of(dst_rank);
  const auto key = std::uint64_t(std::uint32_t(from)) << 32 | std::uint32_t(to);
  auto it = routes_.find(key);
  if (it == routes_.end()) {
    if (routes_.size() >= kMaxRoutes) {
      routes_.clear();
      std::fill(latest_.begin(), latest_.end(), Latest{});
    }
    it = routes_.emplace(key, router_.route(from, to)).first;
  }
  return it->second;
}

const Transfers::Latest& Transfers::latest_route(int src_rank, int dst_rank) {
  const int to = node_of(dst_rank);
  auto& latest = latest_[node_of(src_rank)];
  if (latest.to == to) return latest;
  const Route& r = route(src_rank, dst_rank);  // may clear the table, never resize it
  latest = {to, static_cast<std::uint32_t>(r.channels.size()), r.latency, {}, &r};
  if (latest.hops <= kFewHops) std::copy(r.channels.begin(), r.channels.end(), latest.few);
  return latest;
}

void Transfers::start(double now, int src_rank, int dst_rank, double bytes, std::uint32_t message) {
  const auto& r = latest_route(src_rank, dst_rank);
  if (sharing_ == Sharing::fair || r.latency == 0) return start_flow(now, message, r.channels(), r.latency, bytes);
  waiting_.push_back({now + r.latency, sent_++, message, src_rank, dst_rank, bytes});
  std::push_heap(waiting_.begin(), waiting_.end(), std::greater<>{});
}

void Transfers::start_flow(double now, std::uint32_t message, std::span<const std::uint32_t> channels, double latency,
                           double bytes) {
  const bool rtt = sharing_ == Sharing::rtt;
  const double weight = rtt && latency > 0 ? 1 / latency : 1;
  // Before the solver, so that nothing but what the rest needs is kept across its call.
  if (usage_) [[unlikely]]
    usage_->start(message, now, channels, bytes);
  const auto id = solver_.start(now, channels, bytes, weight);
  if (id >= flows_.size()) flows_.resize(id + 1);
  flows_[id] = {message, rtt ? 0 : latency};
}

double Transfers::next_finish() {
  const double flows = solver_.next_finish();
  return waiting_.empty() ? flows : std::min(flows, waiting_.front().start);
}

const std::vector<Transfers::Arrival>& Transfers::finish_next() {
  arrivals_.clear();
  if (!waiting_.empty() && waiting_.front().start < solver_.next_finish()) {
    const double at = waiting_.front().start;
    while (!waiting_.empty() && waiting_.front().start == at) {
      std::pop_heap(waiting_.begin(), waiting_.end(), std::greater<>{});
      const auto w = waiting_.back();
      waiting_.pop_back();
      const auto& r = latest_route(w.src_rank, w.dst_rank);
      start_flow(at, w.message, r.channels(), r.latency, w.bytes);
    }
    return arrivals_;
  }
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
