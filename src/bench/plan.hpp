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

// Where a point's ranks ran (docs/raw-format.md, "Placement"): `nodes` nodes holding
// `ranks_per_node` of them each, in block placement. Both 0 on a run within one node: the
// record says nothing, as every record before nodes were measured.
struct Placement {
  int nodes = 0;
  int ranks_per_node = 0;

  bool recorded() const { return ranks_per_node > 0; }
  auto operator<=>(const Placement&) const = default;
};

struct Point {
  int operation = 0;  // index into kOperations
  int p = 2;
  std::uint64_t bytes = 0;
  Placement placement{};

  auto operator<=>(const Point&) const = default;
};

// The nodes a run found (MPI_Comm_split_type SHARED): `nodes` of them, each holding at least
// `ranks_per_node` of the run's ranks. One node is the machine of before: placements unrecorded.
struct Nodes {
  int nodes = 1;
  int ranks_per_node = 0;

  bool several() const { return nodes > 1; }
};

// The placements a group of p ranks is measured at. On one node the one unrecorded placement.
// On several, every `n` nodes × `k` ranks a node with n × k = p, n and k each 1 or a group size
// of the nodes and of the ranks a node (group_sizes): a pair on one node and between two nodes,
// a collective at several node counts and ranks a node. None when p is no such product.
std::vector<Placement> placements(int p, const Nodes& machine);

// Powers of two up to `world`, `world` itself, and 3·2^k in between: 2, 3, 4, 6, 8, 12, 16 …
std::vector<int> group_sizes(int world);

// 0, then ×2 steps from the smallest size up to max_bytes, and max_bytes itself.
std::vector<std::uint64_t> size_ladder(Sizes sizes, std::uint64_t max_bytes);

// The operations to measure as indices into kOperations, in table order.
std::vector<int> selected_operations(const SweepSettings& settings);

// Every (operation, p, placement, bytes) of the base sweep, operation by operation, each group
// size at each of its placements on `machine`.
std::vector<Point> base_plan(const std::vector<int>& operations, const std::vector<int>& groups,
                             std::uint64_t max_bytes, const Nodes& machine = {});

using Curve = std::vector<std::pair<std::uint64_t, double>>;  // (bytes, seconds)

// One curve of the sweep: an operation on a group at a placement.
struct CurveKey {
  int operation = 0;
  int p = 2;
  Placement placement{};

  auto operator<=>(const CurveKey&) const = default;
};

// The placement a record names (unrecorded when it names none).
Placement placement_of(const fit::Measurement& m);

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
