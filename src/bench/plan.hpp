#pragma once
// What to measure: the group sizes, the message sizes, and where to add sizes afterwards because
// the curve bends there (a protocol switch such as the eager limit). No MPI here, so the plan
// can be tested on its own.
#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "bench/operation_table.hpp"
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

// Every (operation, p, bytes) of the base sweep, operation by operation.
std::vector<Point> base_plan(const std::vector<int>& operations, const std::vector<int>& groups,
                             std::uint64_t max_bytes);

// What a later pass measures again: the points the first pass recorded in `earlier` (its base and
// its added sizes), once each, in the order it measured them, for the selected `operations`.
std::vector<Point> repeat_plan(const std::vector<fit::Measurement>& earlier, const std::vector<int>& operations);

// Sizes to add to one curve. A measured size whose time differs from the straight line through
// its neighbours by more than `tolerance` (relative) marks a bend; the midpoints on both sides are
// proposed, largest bend first, at most `limit`, none already measured.
std::vector<std::uint64_t> refinement_sizes(const std::vector<std::pair<std::uint64_t, double>>& curve,
                                            Sizes sizes, double tolerance, int limit);

}  // namespace augur::bench
