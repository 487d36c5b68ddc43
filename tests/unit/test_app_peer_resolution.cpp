// The one resolver of peer rules that the simulator and augur learn share: its edges (ranks past
// the ends, a fixed rank outside the program, a grid's border) and the two callers agreeing.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "app/peer_resolution.hpp"
#include "app/process_grid.hpp"
#include "learn/peer_rules.hpp"
#include "sim/program/program.hpp"

namespace {

using augur::app::peer_at;
using augur::app::peer_rank;
using augur::app::PeerRule;
using Kind = PeerRule::Kind;

PeerRule rule_of(Kind kind) {
  PeerRule rule;
  rule.kind = kind;
  return rule;
}

}  // namespace

TEST(AppPeerResolution, AFixedRankOutsideTheProgramIsAnErrorNotProcNull) {
  const auto fixed = rule_of(Kind::fixed);
  EXPECT_EQ(peer_rank(peer_at(fixed, 8, 7), 3, 8), 7);
  EXPECT_THROW(peer_at(fixed, 8, 8), std::invalid_argument);
  EXPECT_THROW(peer_at(fixed, 8, -1), std::invalid_argument);
  try {
    peer_at(fixed, 8, 8);
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "rank 8 is outside 0..7");
  }
  // augur learn's reading is the same resolver's: the rule is refused, not read as no peer.
  EXPECT_THROW(augur::learn::apply_peer_rule(fixed, 3, 8, 8), std::invalid_argument);
}

TEST(AppPeerResolution, ANegativeExclusiveOrIsAnErrorAndOnePastTheRanksIsProcNull) {
  const auto xor_rule = rule_of(Kind::exclusive_or);
  EXPECT_THROW(peer_at(xor_rule, 8, -1), std::invalid_argument);
  EXPECT_EQ(peer_rank(peer_at(xor_rule, 6, 4), 1, 6), 5);
  EXPECT_EQ(peer_rank(peer_at(xor_rule, 6, 4), 2, 6), std::nullopt);  // 2 ^ 4 = 6, past rank 5
  EXPECT_EQ(augur::learn::apply_peer_rule(xor_rule, 2, 6, 4), augur::sim::kNoPeer);
}

TEST(AppPeerResolution, OffsetsWrapOrStopAtTheEnds) {
  auto offset = rule_of(Kind::offset);
  offset.wrap = true;
  EXPECT_EQ(peer_rank(peer_at(offset, 4, -1), 0, 4), 3);
  EXPECT_EQ(peer_rank(peer_at(offset, 4, 9), 0, 4), 1);
  offset.wrap = false;
  EXPECT_EQ(peer_rank(peer_at(offset, 4, -1), 0, 4), std::nullopt);
  EXPECT_EQ(peer_rank(peer_at(offset, 4, 1), 3, 4), std::nullopt);
  EXPECT_EQ(peer_rank(peer_at(offset, 4, 1), 2, 4), 3);
}

TEST(AppPeerResolution, GridNeighboursAreMpiCartShiftsRowMajor) {
  // Against the coordinates themselves, at a count whose grid is not square (12 = 4 × 3, 3 × 2 × 2).
  const int p = 12;
  for (const int dims : {2, 3}) {
    const auto sides = augur::app::balanced_dims(p, dims);
    for (int dim = 0; dim < dims; ++dim)
      for (const int shift : {-1, 1})
        for (const bool periodic : {false, true}) {
          auto grid = rule_of(Kind::grid);
          grid.dims = dims, grid.dim = dim, grid.shift = shift, grid.periodic = periodic;
          const auto at = peer_at(grid, p, 0);
          for (int rank = 0; rank < p; ++rank) {
            std::vector<int> c(dims);
            for (int d = dims - 1, rest = rank; d >= 0; --d) c[d] = rest % sides[d], rest /= sides[d];
            c[dim] += shift;
            std::optional<std::int64_t> expected;
            if (periodic) c[dim] = (c[dim] + sides[dim]) % sides[dim];
            if (c[dim] >= 0 && c[dim] < sides[dim]) {
              std::int64_t r = 0;
              for (int d = 0; d < dims; ++d) r = r * sides[d] + c[d];
              expected = r;
            }
            EXPECT_EQ(peer_rank(at, rank, p), expected) << dims << " " << dim << " " << shift << " " << rank;
          }
        }
  }
}

TEST(AppPeerResolution, RulesWithoutARankNameNone) {
  for (const auto kind : {Kind::any, Kind::none, Kind::reply})
    EXPECT_EQ(peer_rank(peer_at(rule_of(kind), 4, 0), 1, 4), std::nullopt);
  EXPECT_EQ(augur::learn::apply_peer_rule(rule_of(Kind::any), 1, 4, 0), augur::sim::kAny);
  EXPECT_EQ(augur::learn::apply_peer_rule(rule_of(Kind::reply), 1, 4, 0), augur::sim::kLastSource);
}
