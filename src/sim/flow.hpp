#pragma once
// Flow-level contention: every message in transit is a flow over its route's channels, and the
// flows crossing a channel share its capacity max-min fairly (progressive filling: the most
// constrained channel's fair share is given to its flows, which leave that share on their other
// channels; repeated until every flow has a rate). Rates are recomputed whenever a flow starts
// or finishes, and only flows change their progress in between, so times are exact for the
// fluid model and the same input always gives the same output.
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace augur::sim {

class FlowSolver {
 public:
  explicit FlowSolver(std::vector<double> capacity);  // bytes per second of each channel

  // A flow of `bytes` over `channels` starting at `now`, which must not precede the last start
  // or finish. A flow on no channel (both ends on one node) finishes at once.
  std::uint32_t start(double now, std::span<const std::uint32_t> channels, double bytes);
  // When the next active flow finishes (infinity when none is active).
  double next_finish() const { return next_finish_; }
  // Finishes the flows due at next_finish() and returns their ids, lowest first; an id is
  // given to a new flow once its flow has finished.
  std::vector<std::uint32_t> finish_next();
  double rate(std::uint32_t flow) const { return flows_[flow].rate; }
  std::size_t active() const { return active_.size(); }
  double now() const { return now_; }

 private:
  struct Flow {
    std::vector<std::uint32_t> channels;
    double remaining = 0, rate = 0, finish = 0;
  };
  void progress(double to);  // every active flow moves on at its rate
  void share();              // max-min rates for the active flows, then next_finish_

  std::vector<double> capacity_;
  std::vector<Flow> flows_;
  std::vector<std::uint32_t> active_, free_;
  double now_ = 0, next_finish_ = std::numeric_limits<double>::infinity();
  // share()'s scratch, per channel
  std::vector<double> left_;
  std::vector<std::uint32_t> unfixed_;
};

// Runs flows given as (start, channels, bytes), in any order, to the end: each one's finish.
struct FlowSpec {
  double start = 0;
  std::vector<std::uint32_t> channels;
  double bytes = 0;
};
std::vector<double> finish_times(std::vector<double> capacity, const std::vector<FlowSpec>& flows);

}  // namespace augur::sim
