// Max-min fair sharing on the textbook cases, every expected time worked out by hand: channels
// of 1 byte per second, so a flow's time is its bytes over its share.
#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>

#include "sim/network/flow.hpp"

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

// Weighted sharing (SimGrid CM02's: a flow's weight is the inverse of its route's latency). One
// link of 11 bytes per second under flows of 1 µs and 10 µs routes: weights 10⁶ and 10⁵, shares
// 10/11 and 1/11, so 10 and 1 bytes per second.
TEST(SimFlow, WeightedSharesAreProportionalToTheWeights) {
  FlowSolver s({11});
  std::vector<std::uint32_t> link{0};
  const auto near = s.start(0, link, 100, 1 / 1e-6), far = s.start(0, link, 100, 1 / 1e-5);
  EXPECT_NEAR(s.rate(near), 10, 1e-12);
  EXPECT_NEAR(s.rate(far), 1, 1e-12);
}

// Links 0 and 1 of capacity 1. A crosses both with weight 1, B only link 0 with weight 2, C only
// link 1 with weight 1. Per unit of weight, link 0 gives 1/3 and link 1 1/2: link 0 is the
// bottleneck, A gets 1/3 and B 2/3, and C the 2/3 that A leaves of link 1. A's 1 byte ends at 3;
// B's 2 bytes end at 3 too; C's 4 bytes have 2 left then, and end at 5 alone.
TEST(SimFlow, WeightedFillingFixesTheBottleneckPerUnitOfWeightFirst) {
  FlowSolver s({1, 1});
  std::vector<std::uint32_t> both{0, 1}, first{0}, second{1};
  const auto a = s.start(0, both, 1, 1), b = s.start(0, first, 2, 2), c = s.start(0, second, 4, 1);
  EXPECT_NEAR(s.rate(a), 1.0 / 3, 1e-15);
  EXPECT_NEAR(s.rate(b), 2.0 / 3, 1e-15);
  EXPECT_NEAR(s.rate(c), 2.0 / 3, 1e-15);
  EXPECT_NEAR(s.next_finish(), 3, 1e-12);
  EXPECT_EQ(s.finish_next().size(), 2u);
  EXPECT_DOUBLE_EQ(s.rate(c), 1);
  EXPECT_NEAR(s.next_finish(), 5, 1e-12);
}

TEST(SimFlow, AWeightMustBePositiveAndFinite) {
  FlowSolver s({1});
  std::vector<std::uint32_t> link{0};
  EXPECT_THROW(s.start(0, link, 1, 0), std::invalid_argument);
  EXPECT_THROW(s.start(0, link, 1, std::numeric_limits<double>::infinity()), std::invalid_argument);
}

// Two flows on separate 1 GB/s links, 0.4 ps apart at their ends (4 ms and 4 ms + 0.4 ps): each
// ends at its own time, as SimGrid's flows do. Taking ends within a picosecond as one instant
// moves a 1,024-rank dragonfly alltoall's messages by 4e-14 s at step 8, a start its contention
// grows to per cent (docs/simgrid-comparison.md).
TEST(SimFlow, AFlowEndingAPicosecondAfterAnotherEndsAtItsOwnTime) {
  FlowSolver s({1e9, 1e9});
  std::vector<std::uint32_t> first{0}, second{1};
  const auto a = s.start(0, first, 4e6), b = s.start(0, second, 4e6 + 4e-4);
  EXPECT_EQ(s.next_finish(), 4e6 / 1e9);
  EXPECT_EQ(s.finish_next(), std::vector<std::uint32_t>{a});
  EXPECT_EQ(s.next_finish(), (4e6 + 4e-4) / 1e9);
  EXPECT_GT(s.next_finish(), 4e6 / 1e9);
  EXPECT_EQ(s.finish_next(), std::vector<std::uint32_t>{b});
}

// Flows whose ends differ by rounding only still end together.
TEST(SimFlow, FlowsEndingTogetherUpToRoundingEndTogether) {
  FlowSolver s({3, 1});
  std::vector<std::uint32_t> first{0}, second{1};
  s.start(0, first, 0.3);  // 0.3 / 3 is 0.1 rounded differently from 0.1 / 1
  s.start(0, second, 0.1);
  EXPECT_EQ(s.finish_next().size(), 2u);
}
