#pragma once
// Flow-level contention: every message in transit is a flow over its route's channels, and the
// flows crossing a channel share its capacity max-min fairly (progressive filling: the most
// constrained channel's fair share is given to its flows, which leave that share on their other
// channels; repeated until every flow has a rate). The same input always gives the same output.
// A flow may carry a weight: its share of a channel is then proportional to it (weighted
// max-min, as SimGrid's CM02 gives flows shares inversely proportional to their route latency);
// flows of weight 1 share equally.
//
// Max-min rates of flows that share no channel, directly or through other flows, do not depend
// on each other, so a start or a finish re-shares only the flows connected to it, and a flow's
// progress is brought up to date only when its rate changes. Recomputing every flow at every
// change made a 512-rank ring allreduce on a torus (1 M events, flows that never meet) take 51 s.
//
// The changes of one instant are shared out together (settle()): a start or a finish notes the
// channels it touches, and the flows connected to them are re-shared once, before the clock
// moves on or a rate or a finish is asked for. Re-sharing at every start made 4,032 flows
// starting at a few instants on a 64-node torus, all connected, take 6.6 s. The rates are those
// re-sharing at every change gives, to the bit: a group's last re-share at an instant already
// saw all of it.
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace augur::sim {

class FlowSolver {
 public:
  explicit FlowSolver(std::vector<double> capacity);  // bytes per second of each channel

  // A flow of `bytes` over `channels` starting at `now`, which must not precede the last start
  // or finish. A flow on no channel (both ends on one node) finishes at once. `weight` > 0.
  // Starting at a later instant settles the changes of the earlier one first.
  std::uint32_t start(double now, std::span<const std::uint32_t> channels, double bytes, double weight = 1);
  // Shares out the changes made since the last settle(); the three calls below settle first.
  void settle();
  bool settled() const { return dirty_.empty(); }
  // When the next active flow finishes (infinity when none is active).
  double next_finish();
  // Whether a flow is due by `now` without settling: one of no bytes or no channels started
  // then, or a finish already scheduled (a re-share may move the latter, never the former).
  bool due_by(double now) const;
  // Finishes the flows due at next_finish() and returns their ids, lowest first; an id is
  // given to a new flow once its flow has finished.
  // The list is the solver's own, valid until its next call.
  const std::vector<std::uint32_t>& finish_next();
  double rate(std::uint32_t flow) {
    settle();
    return flows_[flow].rate;
  }
  std::size_t active() const { return active_; }
  double now() const { return now_; }

 private:
  static constexpr double kInfinity = std::numeric_limits<double>::infinity();
  // What starting and finishing a flow reads, in one cache line: its channels are here when
  // they are few (every route of a torus's ring neighbours), else in long_routes_.
  static constexpr std::uint32_t kFew = 5;
  struct alignas(64) Flow {
    double remaining = 0;  // bytes left at `updated`
    double updated = 0, rate = 0, finish = 0;
    std::uint32_t version = 0;  // entries of due_ with another version are stale
    std::uint32_t hops = 0;     // how many channels
    std::uint32_t few[kFew] = {};
    bool active = false;
  };
  static_assert(sizeof(Flow) == 64);
  std::span<const std::uint32_t> channels_of(std::uint32_t flow) const {
    const auto& f = flows_[flow];
    return f.hops <= kFew ? std::span<const std::uint32_t>(f.few, f.hops) : std::span<const std::uint32_t>(long_routes_[flow]);
  }
  struct Due {
    double finish;
    std::uint32_t flow, version;
  };
  // due_ is a min-heap: the std heap functions keep the greatest first, so the order is reversed.
  struct Later {
    bool operator()(const Due& a, const Due& b) const {
      return a.finish > b.finish || (a.finish == b.finish && a.flow > b.flow);
    }
  };

  // A channel's active flows: the first here, the others in others_. A flow alone on its channels
  // (a ring, a stencil on a torus) starts and finishes touching only these 16 bytes a channel:
  // lists per channel were cache misses on every start and finish of a 4,096-node torus.
  struct Channel {
    double capacity;  // bytes per second
    std::uint32_t count = 0, first = 0;
  };

  void join_channels(std::uint32_t flow);
  void leave_channels(std::uint32_t flow);
  void reshare(std::span<const std::uint32_t> seeds);  // the flows connected to these channels
  void collect_component(std::span<const std::uint32_t> seeds);
  void fill();  // max-min rates for component_ over component_channels_
  void list_flows_by_channel();     // fill()'s channels, each with its flows, lowest id first
  std::uint32_t next_bottleneck();  // fill()'s channel of the least share per unit of weight
  void fix_flows_on(std::uint32_t channel, double fair);
  void queue_share(std::uint32_t channel);
  void schedule(std::uint32_t flow);
  void drop_stale();
  bool earliest_in_order() const;  // whether in_order_'s front comes first (both not empty)
  const Due* earliest() const;     // the first finish scheduled, or nullptr
  void pop_earliest();

  template <class Visit>
  void for_each_on(std::uint32_t channel, Visit visit) const;

  std::vector<Channel> channels_;
  std::vector<std::vector<std::uint32_t>> others_;  // by channel: its active flows after the first
  std::vector<Flow> flows_;
  std::vector<std::vector<std::uint32_t>> long_routes_;  // by flow: its channels when more than kFew
  std::vector<std::uint32_t> seen_;  // by flow: the epoch of the last component search that reached it
  std::vector<double> weight_;       // by flow
  std::vector<std::uint32_t> free_;
  // Finishes scheduled in non-decreasing time (flows of one size alone on equal links, started
  // one after another: the heap's comparisons were a tenth of a torus ring) queue in in_order_
  // from in_order_head_; the others go to the min-heap due_. Stale entries are left in both.
  std::vector<Due> in_order_;
  std::size_t in_order_head_ = 0;
  std::vector<Due> due_;
  std::size_t active_ = 0;
  double now_ = 0;
  // Channels whose flows wait for settle(), with repeats.
  std::vector<std::uint32_t> dirty_;
  // Scratch of reshare(), by channel, and the component it works on.
  std::uint32_t epoch_ = 0;
  std::vector<std::uint32_t> channel_seen_, unfixed_;
  std::vector<double> left_, weight_left_;  // capacity, and weight of the flows, not yet given
  std::vector<std::uint32_t> component_, component_channels_, pending_, used_, done_;
  // fill()'s flows by channel: channel used_[i]'s are on_channel_[first_on_[i] .. first_on_[i + 1]).
  std::vector<std::uint32_t> slot_, first_on_, on_channel_, fixed_;  // slot_ by channel, fixed_ by flow
  // Shares per unit of weight, the least first, then the channel first in used_: the channel
  // the filling fixes next. An entry is stale once its channel's share changed (stamp_).
  struct Share {
    double fair;
    std::uint32_t slot, stamp;
    bool operator>(const Share& o) const { return fair > o.fair || (fair == o.fair && slot > o.slot); }
  };
  std::vector<Share> shares_;  // a min-heap
  std::vector<std::uint32_t> stamp_;  // by slot
};

// Runs flows given as (start, channels, bytes), in any order, to the end: each one's finish.
struct FlowSpec {
  double start = 0;
  std::vector<std::uint32_t> channels;
  double bytes = 0;
};
std::vector<double> finish_times(std::vector<double> capacity, const std::vector<FlowSpec>& flows);

}  // namespace augur::sim
