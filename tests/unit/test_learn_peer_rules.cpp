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
