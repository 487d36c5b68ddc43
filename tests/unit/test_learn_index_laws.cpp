// augur learn's laws in a loop's index: roots and peers as mod(a ± i, m) or a + mod(±i, m), a
// loop whose root turns from one rule to another split in two, and counts that deal a total
// among the ranks.
#include <gtest/gtest.h>

#include "learn/index_laws.hpp"

using namespace augur::learn;
using V = std::vector<std::int32_t>;

TEST(LearnIndexLaws, RootsThatRotateFollowTheirRule) {
  const auto up = fit_index_peer(V{0, 1, 2, 3, 0, 1}, 4);
  ASSERT_TRUE(up);
  EXPECT_EQ(index_peer_text(*up, "0", "i"), "mod(i, p)");
  const auto down = fit_index_peer(V{3, 2, 1, 0, 3, 2}, 4);
  ASSERT_TRUE(down);
  EXPECT_EQ(index_peer_text(*down, "p - 1", "i"), "mod(p - 1 - i, p)");
  // A client's servers 1..p−1 in turn: an offset range modulo p − 1.
  const auto servers = fit_index_peer(V{1, 2, 3, 1, 2, 3, 1}, 4);
  ASSERT_TRUE(servers);
  EXPECT_EQ(index_peer_text(*servers, "1", "i"), "1 + mod(i, p-1)");
  EXPECT_FALSE(fit_index_peer(V{2, 2, 2}, 4));        // no index needed
  EXPECT_FALSE(fit_index_peer(V{0, 2, 1, 3}, 4));     // no rule
  EXPECT_FALSE(fit_index_peer(V{-2, -2, 0, 1}, 4));   // MPI_PROC_NULL first
}

TEST(LearnIndexLaws, AtTwoRanksUpAndDownAreOne) {
  // 1 0 1 0 follows mod(1 + i, 2) and mod(1 − i, 2): both forms are offered, so that the form
  // the other counts follow (down, for gauss's back substitution) can be chosen.
  const auto rules = index_peer_rules(V{1, 0, 1, 0}, 2);
  bool up = false, down = false;
  for (const auto& r : rules) (r.step > 0 ? up : down) = up || r.step > 0 || down;
  EXPECT_TRUE(up);
  EXPECT_TRUE(down);
  EXPECT_EQ(index_peer_rules(V{3, 2, 1, 0}, 4).size(), 1u);
}

namespace {

// A loop of `peers.size()` iterations of a bcast whose root at each is peers[i], its size 8·(10 − i).
SampleNode rotating_loop(const V& peers, int members) {
  SampleNode bcast;
  bcast.op.kind = augur::sim::OpKind::collective;
  for (int m = 0; m < members; ++m) {
    bcast.peer.push_back(peers.front());
    bcast.peers.push_back(peers);
    std::vector<double> sizes;
    for (std::size_t i = 0; i < peers.size(); ++i) sizes.push_back(8.0 * (10 - double(i)));
    bcast.values.push_back(sizes);
    bcast.value.push_back(0);
  }
  SampleNode loop;
  loop.times = std::uint32_t(peers.size());
  loop.body = {bcast};
  return loop;
}

}  // namespace

TEST(LearnIndexLaws, ALoopWhoseRootTurnsIsSplitWhereItTurns) {
  // Rows 0..3 eliminated by their owners mod(i, 2), then 3..0 solved back by mod(1 − i, 2).
  std::vector<SampleNode> body{rotating_loop(V{0, 1, 0, 1, 1, 0, 1, 0}, 2)};
  split_at_index_turns(body, 2);
  ASSERT_EQ(body.size(), 2u);
  EXPECT_EQ(body[0].times, 4u);
  EXPECT_EQ(body[1].times, 4u);
  EXPECT_EQ(body[0].body[0].peers[1], (V{0, 1, 0, 1}));
  EXPECT_EQ(body[1].body[0].peers[1], (V{1, 0, 1, 0}));
  EXPECT_EQ(body[1].body[0].peer[0], 1);
  EXPECT_EQ(body[1].body[0].values[0], (std::vector<double>{48, 40, 32, 24}));
  EXPECT_DOUBLE_EQ(body[1].body[0].value[0], 36);
  // A root that follows one rule, or none with any split, is left alone.
  std::vector<SampleNode> one{rotating_loop(V{0, 1, 2, 3, 0, 1, 2, 3}, 4)};
  split_at_index_turns(one, 4);
  EXPECT_EQ(one.size(), 1u);
  std::vector<SampleNode> none{rotating_loop(V{0, 2, 1, 3, 3, 0, 2, 1}, 4)};
  split_at_index_turns(none, 4);
  EXPECT_EQ(none.size(), 1u);
}

TEST(LearnIndexLaws, CountsThatDealATotalAmongTheRanks) {
  // reqreply's 200 requests among servers 1..p−1: the first mod(200, p − 1) answer one more.
  const std::vector<std::pair<int, double>> more{{4, 67}, {8, 29}, {16, 14}}, fewer{{4, 66}, {8, 28}, {16, 13}},
      last{{4, 2}, {8, 4}, {16, 5}};
  EXPECT_EQ(dealt_count_law(more, {4, 200}), "floor(200 / (p-1)) + 1");
  EXPECT_EQ(dealt_count_law(fewer, {200}), "floor(200 / (p-1))");
  EXPECT_EQ(dealt_count_law(last, {200}), "mod(200, p-1)");
  EXPECT_FALSE(dealt_count_law(last, {197}));  // 2, 1, 2: no one k
  EXPECT_FALSE(dealt_count_law({{4, 2}, {8, 4}}, {200}));  // two points: any k would do
}
