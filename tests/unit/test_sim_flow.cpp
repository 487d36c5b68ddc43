// Max-min fair sharing on the textbook cases, every expected time worked out by hand: channels
// of 1 byte per second, so a flow's time is its bytes over its share.
#include <gtest/gtest.h>

#include "sim/flow.hpp"

using namespace augur::sim;

TEST(SimFlow, OneFlowTakesItsBytesOverTheCapacity) {
  EXPECT_DOUBLE_EQ(finish_times({4}, {{0, {0}, 8}})[0], 2);
}

TEST(SimFlow, TwoFlowsOnOneLinkTakeTwiceAsLong) {
  auto t = finish_times({1}, {{0, {0}, 10}, {0, {0}, 10}});
  EXPECT_DOUBLE_EQ(t[0], 20);
  EXPECT_DOUBLE_EQ(t[1], 20);
}

// Links 0 and 1 of capacity 1; flow A crosses both, B only 0, C only 1: each link is shared by
// two flows, so all three get 1/2.
TEST(SimFlow, ThreeFlowsOnTwoLinksWithOneShared) {
  FlowSolver s({1, 1});
  std::vector<std::uint32_t> both{0, 1}, first{0}, second{1};
  const auto a = s.start(0, both, 1), b = s.start(0, first, 1), c = s.start(0, second, 1);
  EXPECT_DOUBLE_EQ(s.rate(a), 0.5);
  EXPECT_DOUBLE_EQ(s.rate(b), 0.5);
  EXPECT_DOUBLE_EQ(s.rate(c), 0.5);
  EXPECT_DOUBLE_EQ(s.next_finish(), 2);
  EXPECT_EQ(s.finish_next().size(), 3u);
}

// Link 0 has capacity 1, link 1 capacity 3. A crosses both, B only link 0, C and D only link 1:
// link 0 is the bottleneck (1/2 each for A and B), and C and D share what A leaves of link 1,
// (3 − 1/2) / 2 = 5/4 each.
TEST(SimFlow, WhatABottleneckedFlowLeavesGoesToTheOthers) {
  FlowSolver s({1, 3});
  std::vector<std::uint32_t> both{0, 1}, first{0}, second{1};
  const auto a = s.start(0, both, 1), b = s.start(0, first, 1);
  const auto c = s.start(0, second, 1), d = s.start(0, second, 1);
  EXPECT_DOUBLE_EQ(s.rate(a), 0.5);
  EXPECT_DOUBLE_EQ(s.rate(b), 0.5);
  EXPECT_DOUBLE_EQ(s.rate(c), 1.25);
  EXPECT_DOUBLE_EQ(s.rate(d), 1.25);
}

// A starts alone at 0 with 10 bytes; B joins at 4 with 2 bytes. A has 6 left and both run at
// 1/2: B ends at 8, then A runs alone with 4 left, ending at 12.
TEST(SimFlow, RatesAreRecomputedWhenAFlowStartsOrEnds) {
  auto t = finish_times({1}, {{0, {0}, 10}, {4, {0}, 2}});
  EXPECT_DOUBLE_EQ(t[1], 8);
  EXPECT_DOUBLE_EQ(t[0], 12);
}

TEST(SimFlow, AFlowWithoutChannelsEndsAtOnce) {
  auto t = finish_times({1}, {{3, {}, 100}, {0, {0}, 1}});
  EXPECT_DOUBLE_EQ(t[0], 3);
  EXPECT_DOUBLE_EQ(t[1], 1);
}

TEST(SimFlow, FlowsOnSeparateLinksDoNotInterfere) {
  auto t = finish_times({1, 1}, {{0, {0}, 5}, {0, {1}, 5}});
  EXPECT_DOUBLE_EQ(t[0], 5);
  EXPECT_DOUBLE_EQ(t[1], 5);
}

// One link of capacity 1; A (1 byte), B (3) and C (2) start together at 1/3 each. A, the first
// on the link, ends at 3 with B 2 and C 1 left; at 1/2 each C ends at 5, B then has 1 left and
// runs alone, ending at 6. C's finish (6 when scheduled) comes before B's (9): out of order.
TEST(SimFlow, TheFirstFlowOnALinkLeavingFirstHandsItOverToTheOthers) {
  auto t = finish_times({1}, {{0, {0}, 1}, {0, {0}, 3}, {0, {0}, 2}});
  EXPECT_DOUBLE_EQ(t[0], 3);
  EXPECT_DOUBLE_EQ(t[1], 6);
  EXPECT_DOUBLE_EQ(t[2], 5);
}

// A crosses seven links (more than a flow keeps inline), the last of capacity 1 shared with B:
// 1/2 each there, so both move 4 bytes in 8 seconds.
TEST(SimFlow, ALongRouteSharesLikeAShortOne) {
  auto t = finish_times({2, 2, 2, 2, 2, 2, 1}, {{0, {0, 1, 2, 3, 4, 5, 6}, 4}, {0, {6}, 4}});
  EXPECT_DOUBLE_EQ(t[0], 8);
  EXPECT_DOUBLE_EQ(t[1], 8);
}
