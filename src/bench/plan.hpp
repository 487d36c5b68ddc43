#pragma once
// What to measure: the group sizes, the message sizes, and where to add sizes afterwards because
// the curve bends there (a protocol switch such as the eager limit). No MPI here, so the plan
// can be tested on its own.
#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "bench/operation_table.hpp"
#include "bench/settings.hpp"
#include "fit/raw.hpp"

namespace augur::bench {

struct Point {
  int operation = 0;  // index into kOperations
  int p = 2;
  std::uint64_t bytes = 0;

  auto operator<=>(const Point&) const = default;
};

// Powers of two up to `world`, `world` itself, and 3·2^k in between: 2, 3, 4, 6, 8, 12, 16 …
std::vector<int> group_sizes(int world);

// 0, then ×2 steps from the smallest size up to max_bytes, and max_bytes itself.
std::vector<std::uint64_t> size_ladder(Sizes sizes, std::uint64_t max_bytes);

// The operations to measure as indices into kOperations, in table order.
std::vector<int> selected_operations(const SweepSettings& settings);

// Every (operation, p, bytes) of the base sweep, operation by operation.
std::vector<Point> base_plan(const std::vector<int>& operations, const std::vector<int>& groups,
                             std::uint64_t max_bytes);

using Curve = std::vector<std::pair<std::uint64_t, double>>;  // (bytes, seconds)
using CurveKey = std::pair<int, int>;                          // (operation, p)

// What a later pass measures again: the points earlier passes recorded in `earlier` (the base and
// the added sizes), once each, for the selected `operations`: curve by curve in the order first
// measured, each curve's sizes upwards, so that an added size is measured beside its
// neighbours. Measured at the end of each pass instead, seconds after them, an exscan's 1536 and
// 3072 B took three times what its 1024 and 2048 B took in the same pass in 3 and 5 of 8 passes
// of two runs.
std::vector<Point> repeat_plan(const std::vector<fit::Measurement>& earlier, const std::vector<int>& operations);

// The pass that adds sizes where curves bend: the middle one of `passes`. A slow spell of the
// machine bends one pass's curve where it lifts a run of neighbouring sizes, and pass 1 alone
// added sizes to a third of the curves of one run but not of the next; the fastest of several
// passes bends only where the machine does. From the middle pass on, the added sizes are still
// measured in half the passes, enough to pool their fastest.
int refinement_pass(int passes);

// The fastest median of each size of each (operation, p) curve: the curves refinement bends.
class FastestTimes {
 public:
  void keep(const CurveKey& key, std::uint64_t bytes, double seconds);
  Curve curve(const CurveKey& key) const;  // sizes upwards; empty for a curve not kept
  std::size_t curves() const { return times_.size(); }

 private:
  std::map<CurveKey, std::map<std::uint64_t, double>> times_;
};

// The fastest times of `earlier`'s known operations over passes 1..`last_pass`.
FastestTimes fastest_times(const std::vector<fit::Measurement>& earlier, int last_pass);

// Sizes to add to one curve. A measured size whose time differs from the straight line through
// its neighbours by more than `tolerance` (relative) marks a bend; the midpoints on both sides are
// proposed, largest bend first, at most `limit`, none already in `curve`. (The sweep gives it
// the ladder's sizes only, and itself skips the added sizes a resumed pass has measured.)
std::vector<std::uint64_t> refinement_sizes(const Curve& curve, Sizes sizes, double tolerance, int limit);

}  // namespace augur::bench
