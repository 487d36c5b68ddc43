// Peers as rules in the rank and p: each rule found from the peers it makes at p = 2 … 16, and
// peers that follow none refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <random>

#include "learn/peer_rules.hpp"
#include "sim/program/program.hpp"

namespace {

using augur::app::PeerRule;
using augur::learn::infer_peer_rule;
using augur::learn::PeerSamples;

std::vector<PeerSamples> runs_of(const std::function<std::int32_t(int rank, int p)>& peer) {
  std::vector<PeerSamples> runs;
  for (const int p : {2, 4, 8, 16}) {
    PeerSamples run;
    run.p = p;
    for (int r = 0; r < p; ++r) run.ranks.push_back(r), run.peers.push_back(peer(r, p));
    runs.push_back(run);
  }
  return runs;
}

PeerRule inferred(const std::function<std::int32_t(int, int)>& peer) {
  const auto rule = infer_peer_rule(runs_of(peer), "");
  EXPECT_TRUE(rule.has_value());
  return rule.value_or(PeerRule{});
}

}  // namespace

TEST(LearnPeerRules, RingNeighboursAreWrappingOffsets) {
  const auto next = inferred([](int r, int p) { return (r + 1) % p; });
  EXPECT_EQ(next.kind, PeerRule::Kind::offset);
  EXPECT_TRUE(next.wrap);
  EXPECT_EQ(next.by.expr, "1");
  const auto previous = inferred([](int r, int p) { return (r + p - 1) % p; });
  EXPECT_EQ(previous.kind, PeerRule::Kind::offset);
  EXPECT_EQ(previous.by.expr, "-1");
}

TEST(LearnPeerRules, ARootIsAFixedRankInP) {
  const auto zero = inferred([](int, int) { return 0; });
  EXPECT_EQ(zero.kind, PeerRule::Kind::fixed);
  EXPECT_EQ(zero.rank.expr, "0");
  const auto last = inferred([](int, int p) { return p - 1; });
  EXPECT_EQ(last.kind, PeerRule::Kind::fixed);
  EXPECT_EQ(augur::learn::apply_peer_rule(last, 3, 64, 63), 63);
}

TEST(LearnPeerRules, AnEdgeWithoutNeighbourIsAnOffsetToProcNull) {
  const auto up = inferred([](int r, int p) { return r + 1 < p ? r + 1 : augur::sim::kNoPeer; });
  EXPECT_EQ(up.kind, PeerRule::Kind::offset);
  EXPECT_FALSE(up.wrap);
  EXPECT_EQ(augur::learn::apply_peer_rule(up, 63, 64, 1), augur::sim::kNoPeer);
}

TEST(LearnPeerRules, CartesianNeighboursAreGridRules) {
  // MPI_Cart_shift on a non-periodic MPI_Dims_create(p, 2) grid, as examples/stencil2d does.
  for (const int dim : {0, 1})
    for (const int shift : {-1, 1}) {
      auto truth = augur::learn::peer_rule(PeerRule::Kind::grid);
      truth.dim = dim, truth.shift = shift;
      const auto rule = inferred([&](int r, int p) { return augur::learn::apply_peer_rule(truth, r, p, 0); });
      for (int r = 0; r < 64; ++r)
        EXPECT_EQ(augur::learn::apply_peer_rule(rule, r, 64, 0), augur::learn::apply_peer_rule(truth, r, 64, 0))
            << "dim " << dim << " shift " << shift << " rank " << r;
    }
}

TEST(LearnPeerRules, NeighboursTwoAwayAreGridRules) {
  // A halo two points wide over blocks one point thin: the neighbours two steps along dimension 0,
  // of a non-periodic 2-D grid (sides 2, 2, 4, 4 at p = 2 … 16) and of a periodic 3-D one (sides
  // 2, 2, 2, 4), the destination two up and the source two down as MPI_Cart_shift pairs them.
  for (const int dims : {2, 3})
    for (const auto role : {augur::learn::PeerRole::destination, augur::learn::PeerRole::source}) {
      auto truth = augur::learn::peer_rule(PeerRule::Kind::grid);
      truth.dims = dims, truth.dim = 0, truth.periodic = dims == 3;
      truth.shift = role == augur::learn::PeerRole::destination ? 2 : -2;
      const auto rule = infer_peer_rule(
          runs_of([&](int r, int p) { return augur::learn::apply_peer_rule(truth, r, p, 0); }), "", role);
      ASSERT_TRUE(rule.has_value()) << dims;
      for (const int p : {64, 512})
        for (int r = 0; r < p; ++r)
          ASSERT_EQ(augur::learn::apply_peer_rule(*rule, r, p, 0), augur::learn::apply_peer_rule(truth, r, p, 0))
              << dims << "-D, shift " << truth.shift << ", p " << p << ", rank " << r;
    }
  // A rank that sends to itself at every count is an offset of 0, not a neighbour two away.
  EXPECT_EQ(inferred([](int r, int) { return r; }).kind, PeerRule::Kind::offset);
}

TEST(LearnPeerRules, AGridNumberedWithItsFirstDimensionFastestIsAGridRule) {
  // LAMMPS numbers its processor grid with x fastest: at p = 16 (4 x 2 x 2) a rank's x
  // neighbours are rank ± 1 and its z neighbours rank ± 8, where MPI_Cart_create's are ± 4 and ± 1.
  // (z has one or two ranks at p = 2 … 16, which tell no stride apart: x and y are checked.)
  for (int dim = 0; dim < 2; ++dim)
    for (const int shift : {-1, 1}) {
      auto truth = augur::learn::peer_rule(PeerRule::Kind::grid);
      truth.dims = 3, truth.dim = dim, truth.shift = shift, truth.periodic = true, truth.first_fastest = true;
      const auto rule = infer_peer_rule(
          runs_of([&](int r, int p) { return augur::learn::apply_peer_rule(truth, r, p, 0); }), "",
          shift > 0 ? augur::learn::PeerRole::destination : augur::learn::PeerRole::source);
      ASSERT_TRUE(rule.has_value()) << dim;
      for (const int p : {32, 64, 96})
        for (int r = 0; r < p; ++r)
          ASSERT_EQ(augur::learn::apply_peer_rule(*rule, r, p, 0), augur::learn::apply_peer_rule(truth, r, p, 0))
              << "dim " << dim << ", shift " << shift << ", p " << p << ", rank " << r;
    }
  auto x = augur::learn::peer_rule(PeerRule::Kind::grid);
  x.dims = 3, x.dim = 0, x.shift = 1, x.periodic = true, x.first_fastest = true;
  EXPECT_EQ(augur::learn::apply_peer_rule(x, 3, 16, 0), 0);  // x = 3 of 4 wraps to 0
  x.dim = 2;
  EXPECT_EQ(augur::learn::apply_peer_rule(x, 3, 16, 0), 11);
}

TEST(LearnPeerRules, AButterflyIsAnExclusiveOr) {
  const auto rule = inferred([](int r, int) { return r ^ 1; });
  EXPECT_EQ(rule.kind, PeerRule::Kind::exclusive_or);
  EXPECT_EQ(rule.by.expr, "1");
}

TEST(LearnPeerRules, WildcardsStayWildcards) {
  EXPECT_EQ(inferred([](int, int) { return augur::sim::kAny; }).kind, PeerRule::Kind::any);
}

TEST(LearnPeerRules, AShuffleFollowsNoRule) {
  auto runs = runs_of([](int r, int) { return r; });
  for (auto& run : runs) std::shuffle(run.peers.begin(), run.peers.end(), std::mt19937(7 + run.p));
  EXPECT_FALSE(infer_peer_rule(runs, "").has_value());
}
