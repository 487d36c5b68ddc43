#include "sim/flow.hpp"

#include <algorithm>
#include <stdexcept>

namespace augur::sim {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Progress in floating point leaves a finished flow a rounding error short of its end.
bool due(double finish, double at) { return finish <= at + 1e-12 * std::max(1.0, at); }

}  // namespace

FlowSolver::FlowSolver(std::vector<double> capacity)
    : capacity_(std::move(capacity)), left_(capacity_.size()), unfixed_(capacity_.size(), 0) {}

std::uint32_t FlowSolver::start(double now, std::span<const std::uint32_t> channels, double bytes) {
  if (now < now_) throw std::logic_error("flow: a flow cannot start before the last change");
  for (auto c : channels)
    if (c >= capacity_.size()) throw std::out_of_range("flow: no such channel");
  progress(now);
  // Finished flows' slots are reused, so a long run holds only the flows in flight.
  std::uint32_t id;
  if (free_.empty()) {
    id = static_cast<std::uint32_t>(flows_.size());
    flows_.emplace_back();
  } else {
    id = free_.back();
    free_.pop_back();
  }
  flows_[id] = {{channels.begin(), channels.end()}, std::max(0.0, bytes), 0, now};
  active_.push_back(id);
  share();
  return active_.back();
}

std::vector<std::uint32_t> FlowSolver::finish_next() {
  std::vector<std::uint32_t> done;
  if (active_.empty()) return done;
  const double at = next_finish_;
  progress(at);
  std::erase_if(active_, [&](std::uint32_t f) {
    if (!due(flows_[f].finish, at)) return false;
    flows_[f].remaining = 0;
    done.push_back(f);
    return true;
  });
  std::sort(done.begin(), done.end());
  free_.insert(free_.end(), done.rbegin(), done.rend());
  share();
  return done;
}

void FlowSolver::progress(double to) {
  for (auto f : active_) flows_[f].remaining = std::max(0.0, flows_[f].remaining - flows_[f].rate * (to - now_));
  now_ = to;
}

// Progressive filling over the channels the active flows use.
void FlowSolver::share() {
  std::vector<std::uint32_t> used, pending;
  for (auto f : active_) {
    auto& flow = flows_[f];
    if (flow.channels.empty() || flow.remaining == 0) {
      flow.rate = kInfinity;  // nothing to cross or nothing to send: done now
      continue;
    }
    pending.push_back(f);
    for (auto c : flow.channels) {
      if (unfixed_[c]++ == 0) {
        left_[c] = capacity_[c];
        used.push_back(c);
      }
    }
  }
  while (!pending.empty()) {
    std::uint32_t bottleneck = used.front();
    double fair = kInfinity;
    for (auto c : used)
      if (unfixed_[c] > 0 && left_[c] / unfixed_[c] < fair) fair = left_[c] / unfixed_[c], bottleneck = c;
    std::erase_if(pending, [&](std::uint32_t f) {
      auto& flow = flows_[f];
      if (std::find(flow.channels.begin(), flow.channels.end(), bottleneck) == flow.channels.end()) return false;
      flow.rate = fair;
      for (auto c : flow.channels) left_[c] = std::max(0.0, left_[c] - fair), --unfixed_[c];
      return true;
    });
  }
  next_finish_ = kInfinity;
  for (auto f : active_) {
    auto& flow = flows_[f];
    flow.finish = flow.rate == kInfinity ? now_ : now_ + flow.remaining / flow.rate;
    next_finish_ = std::min(next_finish_, flow.finish);
  }
}

std::vector<double> finish_times(std::vector<double> capacity, const std::vector<FlowSpec>& flows) {
  std::vector<std::size_t> order(flows.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return flows[a].start < flows[b].start; });
  FlowSolver solver(std::move(capacity));
  std::vector<double> finish(flows.size());
  std::vector<std::size_t> spec_of;  // solver id (reused once finished) -> index into flows
  auto finish_due = [&](double before) {
    while (solver.active() > 0 && solver.next_finish() <= before)
      for (auto id : solver.finish_next()) finish[spec_of[id]] = solver.now();
  };
  for (auto i : order) {
    finish_due(flows[i].start);
    const auto id = solver.start(flows[i].start, flows[i].channels, flows[i].bytes);
    if (id >= spec_of.size()) spec_of.resize(id + 1);
    spec_of[id] = i;
  }
  finish_due(kInfinity);
  return finish;
}

}  // namespace augur::sim
