// The compute's states from the bench's compute probes: a run whose probes show two compute
// speeds gives factors of one speed over the other, as a prediction measured at one and a run
// at the other would differ; raw data without probes gives none, and the fit writes them into
// the model file and reads them back.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "fit/compute_states.hpp"
#include "fit/fitter.hpp"
#include "model/model_json.hpp"

namespace augur::fit {
namespace {

constexpr double kStep = 2.4e-9;  // seconds of one compute step in the fast state

// `passes` passes of a send at a few sizes; the compute probe of each is kStep times
// `slowdown(pass)`.
template <class Slowdown>
RawSet probed_run(int passes, Slowdown slowdown) {
  RawSet raw;
  for (int pass = 1; pass <= passes; ++pass)
    for (double bytes : {8.0, 512.0, 32768.0}) {
      const double t = 1e-5 + bytes * 1e-9;
      Measurement m{"send", 2, bytes, 0.98 * t, t, t, 1.1 * t, 0.02 * t, 20, {}, {}, {}};
      m.pass = pass;
      m.compute_probe = kStep * slowdown(pass);
      raw.points.push_back(m);
    }
  return raw;
}

// Half the passes computing at 1.0 and half at 1.3 times the fast step, 15 probes each: of the
// 870 ordered pairs, 225 put a slow probe over a fast one (1.3), 225 the reverse (1/1.3) and
// 420 one speed over itself, so the 5th percentile (the 44th ratio) is 1/1.3 and the 95th (the
// 827th) is 1.3: a prediction measured at one speed and a run at the other.
TEST(ComputeStates, TwoComputeSpeedsGiveOneOverTheOtherAndItsInverse) {
  const auto raw = probed_run(10, [](int pass) { return pass % 2 == 0 ? 1.3 : 1.0; });
  const auto states = compute_states(raw.points);
  ASSERT_TRUE(states.has_value());
  EXPECT_NEAR(states->fast, 1.0 / 1.3, 1e-12);
  EXPECT_NEAR(states->slow, 1.3, 1e-12);
}

// A slow quarter (9 of 36 probes): 243 of the 1260 pairs, 19%, on each side, so the band still
// reaches both ways: the prediction may have measured the slow speed and the run the fast one.
TEST(ComputeStates, ASlowQuarterWidensTheBandBothWays) {
  const auto raw = probed_run(12, [](int pass) { return pass % 4 == 0 ? 1.3 : 1.0; });
  const auto states = compute_states(raw.points);
  ASSERT_TRUE(states.has_value());
  EXPECT_NEAR(states->fast, 1.0 / 1.3, 1e-12);
  EXPECT_NEAR(states->slow, 1.3, 1e-12);
}

// One slow pass in twenty (3 of 60 probes): its 171 pairs on each side are 4.8% of 3540, under
// the 5% each end leaves out, so it moves neither.
TEST(ComputeStates, ARareSlowPassMovesNeither) {
  const auto raw = probed_run(20, [](int pass) { return pass == 7 ? 1.3 : 1.0; });
  const auto states = compute_states(raw.points);
  ASSERT_TRUE(states.has_value());
  EXPECT_EQ(states->fast, 1.0);
  EXPECT_EQ(states->slow, 1.0);
}

TEST(ComputeStates, ASteadyMachineGetsFactorsOfOne) {
  const auto states = compute_states(probed_run(6, [](int) { return 1.0; }).points);
  ASSERT_TRUE(states.has_value());
  EXPECT_EQ(states->fast, 1.0);
  EXPECT_EQ(states->slow, 1.0);
}

TEST(ComputeStates, TooFewOrNoProbesGiveNoStates) {
  auto raw = probed_run(2, [](int pass) { return pass == 2 ? 1.3 : 1.0; });
  raw.points.pop_back();
  raw.points.pop_back();
  ASSERT_LT(raw.points.size(), static_cast<std::size_t>(kMinComputeProbes));
  EXPECT_FALSE(compute_states(raw.points).has_value());
  auto unprobed = probed_run(10, [](int) { return 1.0; });
  for (auto& m : unprobed.points) m.compute_probe.reset();
  EXPECT_FALSE(compute_states(unprobed.points).has_value());
}

TEST(ComputeStates, TheFitWritesThemToTheModelAndOldRawDataStillFits) {
  const auto model = fit_model(probed_run(10, [](int pass) { return pass % 2 == 0 ? 1.3 : 1.0; }), FitOptions{}).model;
  ASSERT_TRUE(model.compute.states.has_value());
  const auto loaded = model::parse_model(model::to_json(model).dump(), "model.json");
  ASSERT_TRUE(loaded.compute.states.has_value());
  EXPECT_DOUBLE_EQ(loaded.compute.states->fast, model.compute.states->fast);
  EXPECT_DOUBLE_EQ(loaded.compute.states->slow, model.compute.states->slow);
  EXPECT_NEAR(loaded.compute.states->fast, 1.0 / 1.3, 1e-12);

  auto old = probed_run(10, [](int) { return 1.0; });
  for (auto& m : old.points) m.compute_probe.reset();
  const auto old_model = fit_model(old, FitOptions{}).model;
  EXPECT_FALSE(old_model.compute.states.has_value());
  EXPECT_FALSE(model::to_json(old_model).at("compute").contains("states"));
}

// Real probes: 30 ping-pong records of a quick bench on this machine (26 November). Nine in
// ten of their 870 ordered pairs' ratios lie within the states, and no more than the ties at
// the two ends add.
TEST(ComputeStates, NineRealPairsInTenLieWithinTheStates) {
  const auto raw = read_raw_file(std::string(AUGUR_TEST_DATA) + "/compute-probes.raw.jsonl");
  std::vector<double> probes;
  for (const auto& m : raw.points) probes.push_back(*m.compute_probe);
  const auto states = compute_states(raw.points);
  ASSERT_TRUE(states.has_value());
  EXPECT_LT(states->fast, 1);
  EXPECT_GT(states->slow, 1);
  int inside = 0, pairs = 0;
  for (std::size_t i = 0; i < probes.size(); ++i)
    for (std::size_t j = 0; j < probes.size(); ++j) {
      if (i == j) continue;
      const double r = probes[i] / probes[j];
      ++pairs;
      inside += r >= states->fast * (1 - 1e-12) && r <= states->slow * (1 + 1e-12);
    }
  ASSERT_EQ(pairs, 870);
  EXPECT_GE(inside, 0.9 * pairs);
  EXPECT_LE(inside, 0.9 * pairs + 4);
}

}  // namespace
}  // namespace augur::fit
