#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "bench/operation_table.hpp"
#include "bench/plan.hpp"
#include "bench/settings.hpp"
#include "model/catalog.hpp"

using namespace augur::bench;

TEST(BenchPlan, GroupSizesArePowersOfTwoThreeTimesPowersAndTheWorld) {
  EXPECT_EQ(group_sizes(2), (std::vector<int>{2}));
  EXPECT_EQ(group_sizes(4), (std::vector<int>{2, 3, 4}));
  EXPECT_EQ(group_sizes(5), (std::vector<int>{2, 3, 4, 5}));
  EXPECT_EQ(group_sizes(16), (std::vector<int>{2, 3, 4, 6, 8, 12, 16}));
}

TEST(BenchPlan, ByteLadderDoublesFromOneAndEndsAtTheMaximum) {
  EXPECT_EQ(size_ladder(Sizes::bytes, 16), (std::vector<std::uint64_t>{0, 1, 2, 4, 8, 16}));
  EXPECT_EQ(size_ladder(Sizes::bytes, 20), (std::vector<std::uint64_t>{0, 1, 2, 4, 8, 16, 20}));
  EXPECT_EQ(size_ladder(Sizes::none, 1 << 20), (std::vector<std::uint64_t>{0}));
}

TEST(BenchPlan, IntLadderKeepsWholeInts) {
  EXPECT_EQ(size_ladder(Sizes::ints, 16), (std::vector<std::uint64_t>{0, 4, 8, 16}));
  EXPECT_EQ(size_ladder(Sizes::ints, 30), (std::vector<std::uint64_t>{0, 4, 8, 16, 28}));
  EXPECT_EQ(size_ladder(Sizes::ints, 3), (std::vector<std::uint64_t>{0}));
}

TEST(BenchPlan, PointToPointRunsOnPairsOnlyAndCollectivesOnEveryGroup) {
  const std::vector<int> ops{operation_index("pingpong"), operation_index("barrier"), operation_index("bcast")};
  const auto plan = base_plan(ops, {2, 3, 4}, 2);
  std::vector<Point> expected{
      {ops[0], 2, 0}, {ops[0], 2, 1}, {ops[0], 2, 2},
      {ops[1], 2, 0}, {ops[1], 3, 0}, {ops[1], 4, 0},
      {ops[2], 2, 0}, {ops[2], 2, 1}, {ops[2], 2, 2},
      {ops[2], 3, 0}, {ops[2], 3, 1}, {ops[2], 3, 2},
      {ops[2], 4, 0}, {ops[2], 4, 1}, {ops[2], 4, 2}};
  EXPECT_EQ(plan, expected);
}

TEST(BenchPlan, OnOneNodeAGroupHasOnePlacementUnrecorded) {
  EXPECT_EQ(placements(4, Nodes{1, 4}), (std::vector<Placement>{Placement{}}));
  EXPECT_FALSE(placements(2, Nodes{}).front().recorded());
}

TEST(BenchPlan, OnSeveralNodesAGroupIsMeasuredAtEachNodesTimesRanksANode) {
  const Nodes two_of_two{2, 2};
  EXPECT_EQ(placements(2, two_of_two), (std::vector<Placement>{{1, 2}, {2, 1}}));
  EXPECT_TRUE(placements(3, two_of_two).empty()) << "3 ranks fill no whole nodes of 2";
  EXPECT_EQ(placements(4, two_of_two), (std::vector<Placement>{{2, 2}}));
  // 4 nodes of 8: node counts and ranks a node from 1 and the group sizes 2, 3, 4 (and 6, 8).
  const Nodes four_of_eight{4, 8};
  EXPECT_EQ(placements(8, four_of_eight), (std::vector<Placement>{{1, 8}, {2, 4}, {4, 2}}));
  EXPECT_EQ(placements(12, four_of_eight), (std::vector<Placement>{{2, 6}, {3, 4}, {4, 3}}));
  EXPECT_EQ(placements(32, four_of_eight), (std::vector<Placement>{{4, 8}}));
  for (int p = 2; p <= 32; ++p)
    for (const auto& where : placements(p, four_of_eight)) {
      EXPECT_EQ(where.nodes * where.ranks_per_node, p);
      EXPECT_LE(where.nodes, 4);
      EXPECT_LE(where.ranks_per_node, 8);
    }
}

TEST(BenchPlan, PairsAcrossNodesAreMeasuredOnOneNodeAndBetweenTwo) {
  const std::vector<int> ops{operation_index("pingpong"), operation_index("barrier")};
  const auto plan = base_plan(ops, {2, 3, 4}, 1, Nodes{2, 2});
  std::vector<Point> expected{
      {ops[0], 2, 0, {1, 2}}, {ops[0], 2, 1, {1, 2}}, {ops[0], 2, 0, {2, 1}}, {ops[0], 2, 1, {2, 1}},
      {ops[1], 2, 0, {1, 2}}, {ops[1], 2, 0, {2, 1}}, {ops[1], 4, 0, {2, 2}}};
  EXPECT_EQ(plan, expected);
}

TEST(BenchPlan, ALaterPassRepeatsEachPlacementsCurve) {
  const int send = operation_index("send");
  std::vector<augur::fit::Measurement> earlier(3);
  for (auto& m : earlier) {
    m.op = "send";
    m.p = 2;
  }
  earlier[0].bytes = 8, earlier[0].nodes = 1, earlier[0].ranks_per_node = 2;
  earlier[1].bytes = 8, earlier[1].nodes = 2, earlier[1].ranks_per_node = 1;
  earlier[2].bytes = 16, earlier[2].nodes = 1, earlier[2].ranks_per_node = 2;
  EXPECT_EQ(repeat_plan(earlier, {send}),
            (std::vector<Point>{{send, 2, 8, {1, 2}}, {send, 2, 16, {1, 2}}, {send, 2, 8, {2, 1}}}));
}

TEST(BenchPlan, RefinementAddsSizesAroundAStepOnly) {
  // Flat at 1 µs up to 2048 B, then a jump to 5 µs: the eager limit between 2048 and 4096.
  std::vector<std::pair<std::uint64_t, double>> curve{
      {256, 1e-6}, {512, 1e-6}, {1024, 1e-6}, {2048, 1e-6}, {4096, 5e-6}, {8192, 5.2e-6}, {16384, 5.4e-6}};
  const auto extra = refinement_sizes(curve, Sizes::bytes, 0.15, 10);
  ASSERT_FALSE(extra.empty());
  EXPECT_TRUE(std::find(extra.begin(), extra.end(), 3072u) != extra.end());
  for (auto bytes : extra) {
    EXPECT_GT(bytes, 1024u);
    EXPECT_LT(bytes, 8192u);
  }
}

TEST(BenchPlan, RefinementLeavesAStraightLineAlone) {
  std::vector<std::pair<std::uint64_t, double>> curve;
  for (std::uint64_t b = 1; b <= 65536; b *= 2) curve.push_back({b, 1e-6 + b * 1e-10});
  EXPECT_TRUE(refinement_sizes(curve, Sizes::bytes, 0.15, 10).empty());
}

TEST(BenchPlan, RefinementRespectsTheLimitAndSkipsMeasuredSizes) {
  std::vector<std::pair<std::uint64_t, double>> curve{
      {0, 1e-6}, {16, 1e-6}, {32, 9e-6}, {64, 9e-6}, {128, 1e-6}, {256, 1e-6}};
  const auto extra = refinement_sizes(curve, Sizes::ints, 0.15, 2);
  EXPECT_EQ(extra.size(), 2u);
  for (auto bytes : extra) {
    EXPECT_EQ(bytes % kIntBytes, 0u);
    for (const auto& [measured, t] : curve) EXPECT_NE(bytes, measured);
  }
  // Between neighbouring ints there is no size left to add.
  std::vector<std::pair<std::uint64_t, double>> dense{{0, 1e-6}, {4, 1e-6}, {8, 9e-6}, {12, 9e-6}, {16, 1e-6}};
  EXPECT_TRUE(refinement_sizes(dense, Sizes::ints, 0.15, 5).empty());
}

namespace {

augur::fit::Measurement measured(const char* op, double bytes, double median, int pass) {
  augur::fit::Measurement m;
  m.op = op;
  m.p = 2;
  m.bytes = bytes;
  m.median = median;
  m.pass = pass;
  return m;
}

}  // namespace

TEST(BenchPlan, TheMiddlePassAddsSizes) {
  EXPECT_EQ(refinement_pass(1), 1);
  EXPECT_EQ(refinement_pass(2), 1);
  EXPECT_EQ(refinement_pass(7), 4);
  EXPECT_EQ(refinement_pass(15), 8);
}

TEST(BenchPlan, ACurveTakesEachSizesFastestPassUpToTheRefinementPass) {
  // Pass 1 fell in a slow spell from 64 B on, which bends its curve; pass 2 did not.
  const std::vector<augur::fit::Measurement> earlier{
      measured("send", 0, 1e-6, 1),   measured("send", 64, 3e-6, 1),  measured("send", 128, 3e-6, 1),
      measured("send", 256, 3e-6, 1), measured("send", 0, 1.1e-6, 2), measured("send", 64, 1e-6, 2),
      measured("send", 128, 1e-6, 2), measured("send", 256, 1e-6, 2), measured("send", 64, 0.5e-6, 3),
      measured("unknown", 0, 1e-6, 1)};
  const int send = operation_index("send");
  const Curve first_pass = fastest_times(earlier, 1).curve({send, 2});
  const Curve two_passes = fastest_times(earlier, 2).curve({send, 2});
  EXPECT_EQ(first_pass, (Curve{{0, 1e-6}, {64, 3e-6}, {128, 3e-6}, {256, 3e-6}}));
  EXPECT_EQ(two_passes, (Curve{{0, 1e-6}, {64, 1e-6}, {128, 1e-6}, {256, 1e-6}}));
  EXPECT_EQ(fastest_times(earlier, 2).curves(), 1u) << "an operation the bench does not know has no curve";
  EXPECT_FALSE(refinement_sizes(first_pass, Sizes::bytes, 0.15, 2).empty()) << "the spell's bend";
  EXPECT_TRUE(refinement_sizes(two_passes, Sizes::bytes, 0.15, 2).empty());
}

TEST(BenchPlan, ASizeMeasuredInThisPassJoinsItsCurveInOrderAndKeepsTheFasterTime) {
  FastestTimes fastest;
  fastest.keep({0, 2}, 256, 2e-6);
  fastest.keep({0, 2}, 64, 1e-6);
  fastest.keep({0, 2}, 256, 3e-6);
  fastest.keep({0, 2}, 128, 1.5e-6);
  fastest.keep({0, 2}, 64, 0.8e-6);
  EXPECT_EQ(fastest.curve({0, 2}), (Curve{{64, 0.8e-6}, {128, 1.5e-6}, {256, 2e-6}}));
  EXPECT_TRUE(fastest.curve({0, 4}).empty());
  EXPECT_EQ(fastest.curves(), 1u);
}

TEST(BenchPlan, ALaterPassRepeatsEveryEarlierPointOnceCurveByCurveSizesUpwards) {
  const std::vector<augur::fit::Measurement> earlier{
      measured("send", 0, 1e-6, 1),    measured("send", 64, 1e-6, 1), measured("barrier", 0, 1e-6, 1),
      measured("send", 0, 1e-6, 2),    measured("send", 64, 1e-6, 2), measured("barrier", 0, 1e-6, 2),
      measured("send", 32, 1e-6, 2)};  // added by pass 2, the refinement pass of three
  const int send = operation_index("send");
  const int barrier = operation_index("barrier");
  EXPECT_EQ(repeat_plan(earlier, {send, barrier}),
            (std::vector<Point>{{send, 2, 0}, {send, 2, 32}, {send, 2, 64}, {barrier, 2, 0}}));
  EXPECT_EQ(repeat_plan(earlier, {barrier}), (std::vector<Point>{{barrier, 2, 0}}));
}

TEST(BenchOperations, EveryMeasuredOperationIsInTheModelCatalog) {
  for (const auto& shape : kOperations)
    EXPECT_NE(augur::model::find_operation_info(shape.name), nullptr) << shape.name;
}

TEST(BenchOperations, NamesAreUnique) {
  for (std::size_t i = 0; i < kOperations.size(); ++i)
    EXPECT_EQ(operation_index(kOperations[i].name), static_cast<int>(i)) << kOperations[i].name;
  EXPECT_EQ(find_operation_shape("nosuch"), nullptr);
}

TEST(BenchPresets, GrowFromQuickToFullAndRejectUnknownNames) {
  const auto quick = augur::bench::preset_settings("quick");
  const auto standard = augur::bench::preset_settings("standard");
  const auto full = augur::bench::preset_settings("full");
  EXPECT_EQ(quick.preset, "quick");
  EXPECT_LT(quick.max_bytes, standard.max_bytes);
  EXPECT_LT(standard.max_bytes, full.max_bytes);
  EXPECT_LT(quick.budget_seconds, standard.budget_seconds);
  EXPECT_LT(standard.budget_seconds, full.budget_seconds);
  EXPECT_GE(full.max_reps, standard.max_reps);
  EXPECT_THROW(augur::bench::preset_settings("huge"), std::invalid_argument);
}

// A quick run pools from more passes than the others, whose launches carry more repetitions each.
TEST(BenchPresets, QuickMakesMorePassesThanTheOthersWithinTheLimit) {
  using augur::bench::preset_passes;
  EXPECT_GT(preset_passes("quick"), preset_passes("full"));
  for (const char* name : {"quick", "standard", "full"}) {
    EXPECT_GE(preset_passes(name), 3) << name << ": the fit pools three passes";
    EXPECT_LE(preset_passes(name), augur::bench::kMostPasses) << name;
  }
  EXPECT_THROW(preset_passes("huge"), std::invalid_argument);
}
