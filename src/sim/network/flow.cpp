#include "sim/network/flow.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace augur::sim {
namespace {

// Progress in floating point leaves a finished flow a rounding error short of its end, a few
// ulps of the time. A coarser window (a picosecond) finishes flows early that SimGrid finishes at
// their own time, and a contended alltoall grows that into per cent.
bool due(double finish, double at) { return finish <= at + 1e-14 * at; }

}  // namespace

FlowSolver::FlowSolver(std::vector<double> capacity)
    : others_(capacity.size()),
      channel_seen_(capacity.size(), 0),
      unfixed_(capacity.size(), 0),
      left_(capacity.size(), 0),
      weight_left_(capacity.size(), 0) {
  channels_.reserve(capacity.size());
  for (double c : capacity) channels_.push_back({c});
}

template <class Visit>
void FlowSolver::for_each_on(std::uint32_t channel, Visit visit) const {
  const auto& ch = channels_[channel];
  if (ch.count == 0) return;
  visit(ch.first);
  if (ch.count > 1)
    for (auto id : others_[channel]) visit(id);
}

std::uint32_t FlowSolver::start(double now, std::span<const std::uint32_t> channels, double bytes, double weight) {
  if (now < now_) throw std::logic_error("flow: a flow cannot start before the last change");
  if (!(weight > 0 && weight < kInfinity)) throw std::invalid_argument("flow: a weight must be positive and finite");
  // One pass checks the channels and finds whether the flow is alone and its narrowest channel.
  bool alone = true;
  double narrowest = kInfinity;
  for (auto c : channels) {
    if (c >= channels_.size()) throw std::out_of_range("flow: no such channel");
    alone = alone && channels_[c].count == 0;
    narrowest = std::min(narrowest, channels_[c].capacity);
  }
  if (now > now_) settle();  // the flows' progress up to now is at the rates of the last instant
  now_ = now;
  // Finished flows' slots are reused, so a long run holds only the flows in flight.
  std::uint32_t id;
  if (free_.empty()) {
    id = static_cast<std::uint32_t>(flows_.size());
    flows_.emplace_back();
    long_routes_.emplace_back();
    seen_.push_back(0);
    fixed_.push_back(0);
    weight_.push_back(1);
  } else {
    id = free_.back();
    free_.pop_back();
  }
  auto& f = flows_[id];
  f.hops = static_cast<std::uint32_t>(channels.size());
  if (f.hops <= kFew)
    for (std::uint32_t i = 0; i < f.hops; ++i) f.few[i] = channels[i];  // std::copy called memmove
  else long_routes_[id].assign(channels.begin(), channels.end());
  f.remaining = std::max(0.0, bytes);
  f.updated = now;
  f.rate = 0;
  f.active = true;
  weight_[id] = weight;
  ++active_;
  // Without a reshare no scheduled finish goes stale, and the earliest stays a live flow's:
  // only a reshare needs drop_stale().
  if (f.hops == 0 || f.remaining == 0) {
    f.rate = kInfinity;  // nothing to cross or nothing to send: done now
    schedule(id);
  } else if (alone) {
    // The common case of flows that do not meet (a ring, a stencil on a torus): the narrowest
    // channel is its rate, as filling would find, without searching for a component. A flow
    // joining it later in this instant re-shares it with the rest.
    join_channels(id);
    f.rate = narrowest;
    schedule(id);
  } else {
    join_channels(id);
    const auto on = channels_of(id);
    dirty_.insert(dirty_.end(), on.begin(), on.end());
  }
  return id;
}

void FlowSolver::settle() {
  if (dirty_.empty()) return;
  reshare(dirty_);
  dirty_.clear();
  drop_stale();
}

bool FlowSolver::due_by(double now) const {
  const Due* first = earliest();
  return first && first->finish <= now;
}

const std::vector<std::uint32_t>& FlowSolver::finish_next() {
  settle();
  auto& done = done_;
  done.clear();
  if (!earliest()) return done;
  const double at = earliest()->finish;
  now_ = at;
  for (const Due* first = earliest(); first && due(first->finish, at); first = earliest()) {
    const Due d = *first;
    pop_earliest();
    auto& f = flows_[d.flow];
    if (!f.active || f.version != d.version) continue;
    f.active = false;
    f.remaining = 0;
    --active_;
    if (f.rate != kInfinity) {
      leave_channels(d.flow);
      for (auto c : channels_of(d.flow))
        if (channels_[c].count > 0) dirty_.push_back(c);  // its neighbours gain what it leaves
    }
    done.push_back(d.flow);
  }
  if (!std::is_sorted(done.begin(), done.end())) std::sort(done.begin(), done.end());
  free_.insert(free_.end(), done.rbegin(), done.rend());
  drop_stale();
  return done;
}

void FlowSolver::join_channels(std::uint32_t flow) {
  for (auto c : channels_of(flow)) {
    auto& ch = channels_[c];
    if (ch.count++ == 0) ch.first = flow;
    else others_[c].push_back(flow);
  }
}

void FlowSolver::leave_channels(std::uint32_t flow) {
  for (auto c : channels_of(flow)) {
    auto& ch = channels_[c];
    if (--ch.count == 0) continue;
    auto& on = others_[c];
    if (ch.first == flow) ch.first = on.back();
    else *std::find(on.begin(), on.end(), flow) = on.back();
    on.pop_back();
  }
}

// The flows connected to the seed channels get new rates: brought up to date at their old
// rate first, then filled, then their finishes rescheduled.
void FlowSolver::reshare(std::span<const std::uint32_t> seeds) {
  collect_component(seeds);
  if (component_.empty()) return;
  for (auto id : component_) {
    auto& f = flows_[id];
    f.remaining = std::max(0.0, f.remaining - f.rate * (now_ - f.updated));
    f.updated = now_;
  }
  // The lowest id first, whatever order the search found them in: the same input gives the same
  // order of the arithmetic.
  std::sort(component_.begin(), component_.end());
  fill();
  for (auto id : component_) schedule(id);
}

void FlowSolver::collect_component(std::span<const std::uint32_t> seeds) {
  component_.clear();
  component_channels_.clear();
  ++epoch_;
  for (auto seed : seeds) {
    if (channel_seen_[seed] == epoch_) continue;
    channel_seen_[seed] = epoch_;
    component_channels_.push_back(seed);
  }
  for (std::size_t next = 0; next < component_channels_.size(); ++next) {
    for_each_on(component_channels_[next], [&](std::uint32_t id) {
      if (seen_[id] == epoch_) return;
      seen_[id] = epoch_;
      component_.push_back(id);
      for (auto c : channels_of(id)) {
        if (channel_seen_[c] == epoch_) continue;
        channel_seen_[c] = epoch_;
        component_channels_.push_back(c);
      }
    });
  }
}

// Progressive filling over the component's channels: the channel that gives the least per unit
// of weight fixes its flows, each at its weight times that. The channels' shares wait in a heap
// and each fixed flow updates only its own channels': scanning every channel for each
// bottleneck was quadratic in a group of thousands of flows.
void FlowSolver::fill() {
  auto& pending = pending_;
  auto& used = used_;
  pending.clear();
  used.clear();
  for (auto id : component_) {
    auto& f = flows_[id];
    if (f.remaining == 0) {
      f.rate = kInfinity;  // sent all it had at its old rate: done now
      continue;
    }
    pending.push_back(id);
    for (auto c : channels_of(id)) {
      if (unfixed_[c]++ == 0) {
        left_[c] = channels_[c].capacity;
        weight_left_[c] = 0;
        used.push_back(c);
      }
      weight_left_[c] += weight_[id];
    }
  }
  if (pending.empty()) return;
  list_flows_by_channel();
  for (std::size_t unfixed = pending.size(); unfixed > 0;) {
    const auto slot = next_bottleneck();
    const auto bottleneck = used[slot];
    const double fair = left_[bottleneck] / weight_left_[bottleneck];
    unfixed -= unfixed_[bottleneck];
    fix_flows_on(bottleneck, fair);
  }
}

void FlowSolver::list_flows_by_channel() {
  const auto& used = used_;
  if (slot_.size() < channels_.size()) slot_.resize(channels_.size());
  first_on_.assign(used.size() + 1, 0);
  stamp_.assign(used.size(), 0);
  shares_.clear();
  for (std::uint32_t i = 0; i < used.size(); ++i) {
    const auto c = used[i];
    slot_[c] = i;
    first_on_[i + 1] = first_on_[i] + unfixed_[c];
    shares_.push_back({left_[c] / weight_left_[c], i, 0});
  }
  std::make_heap(shares_.begin(), shares_.end(), std::greater<>{});
  on_channel_.resize(first_on_.back());
  // stamp_ counts the flows placed so far while it is not yet needed for the heap.
  for (auto id : pending_)  // lowest id first, so each channel's flows are too
    for (auto c : channels_of(id)) {
      const auto i = slot_[c];
      on_channel_[first_on_[i] + stamp_[i]++] = id;
    }
  std::fill(stamp_.begin(), stamp_.end(), 0);
}

// The least share per unit of weight, the channel first in used_ among equals: what a scan of
// used_ in order, keeping the first strictly smaller, finds.
std::uint32_t FlowSolver::next_bottleneck() {
  while (!shares_.empty()) {
    std::pop_heap(shares_.begin(), shares_.end(), std::greater<>{});
    const Share s = shares_.back();
    shares_.pop_back();
    if (s.stamp == stamp_[s.slot] && unfixed_[used_[s.slot]] > 0) return s.slot;
  }
  throw std::logic_error("flow: flows left without a channel to fill");
}

// Fixes the unfixed flows on `channel`, lowest id first, and takes their rates from the
// capacity left on their channels.
void FlowSolver::fix_flows_on(std::uint32_t channel, double fair) {
  const auto slot = slot_[channel];
  for (auto i = first_on_[slot]; i < first_on_[slot + 1]; ++i) {
    const auto id = on_channel_[i];
    if (fixed_[id] == epoch_) continue;
    fixed_[id] = epoch_;
    auto& f = flows_[id];
    f.rate = fair * weight_[id];
    for (auto c : channels_of(id)) {
      left_[c] = std::max(0.0, left_[c] - f.rate);
      weight_left_[c] -= weight_[id];
      if (--unfixed_[c] > 0 && c != channel) queue_share(c);
    }
  }
}

void FlowSolver::queue_share(std::uint32_t channel) {
  const auto slot = slot_[channel];
  shares_.push_back({left_[channel] / weight_left_[channel], slot, ++stamp_[slot]});
  std::push_heap(shares_.begin(), shares_.end(), std::greater<>{});
}

void FlowSolver::schedule(std::uint32_t flow) {
  auto& f = flows_[flow];
  f.finish = f.rate == kInfinity ? now_ : now_ + f.remaining / f.rate;
  ++f.version;
  if (in_order_head_ == in_order_.size() || f.finish >= in_order_.back().finish) {
    in_order_.push_back({f.finish, flow, f.version});
    return;
  }
  due_.push_back({f.finish, flow, f.version});
  std::push_heap(due_.begin(), due_.end(), Later{});
}

double FlowSolver::next_finish() {
  settle();
  const Due* first = earliest();
  return first ? first->finish : kInfinity;
}

// Which of equal finishes comes first does not matter: finish_next() takes them all.
bool FlowSolver::earliest_in_order() const { return in_order_[in_order_head_].finish <= due_.front().finish; }

const FlowSolver::Due* FlowSolver::earliest() const {
  if (in_order_head_ == in_order_.size()) return due_.empty() ? nullptr : &due_.front();
  return due_.empty() || earliest_in_order() ? &in_order_[in_order_head_] : &due_.front();
}

void FlowSolver::pop_earliest() {
  if (in_order_head_ < in_order_.size() && (due_.empty() || earliest_in_order())) {
    if (++in_order_head_ == in_order_.size()) {
      in_order_.clear();
      in_order_head_ = 0;
    } else if (in_order_head_ >= 4096 && 2 * in_order_head_ >= in_order_.size()) {
      in_order_.erase(in_order_.begin(), in_order_.begin() + static_cast<std::ptrdiff_t>(in_order_head_));
      in_order_head_ = 0;
    }
    return;
  }
  std::pop_heap(due_.begin(), due_.end(), Later{});
  due_.pop_back();
}

// Stale entries are dropped from the front, so next_finish() is a live flow's, and both queues
// are rebuilt when they outnumber the live ones.
void FlowSolver::drop_stale() {
  auto stale = [&](const Due& d) { return !flows_[d.flow].active || flows_[d.flow].version != d.version; };
  if (in_order_.size() - in_order_head_ + due_.size() > 2 * active_ + 1024) {
    in_order_.erase(in_order_.begin(), in_order_.begin() + static_cast<std::ptrdiff_t>(in_order_head_));
    in_order_head_ = 0;
    std::erase_if(in_order_, stale);
    std::erase_if(due_, stale);
    std::make_heap(due_.begin(), due_.end(), Later{});
  }
  for (const Due* first = earliest(); first && stale(*first); first = earliest()) pop_earliest();
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
  finish_due(std::numeric_limits<double>::infinity());
  return finish;
}

}  // namespace augur::sim
