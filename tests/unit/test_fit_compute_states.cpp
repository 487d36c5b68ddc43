// The compute's states from the bench's compute probes: a run whose probes show two compute
// speeds gives factors at the two speeds, relative to the typical (median) probe; raw data
// without probes gives none, and the fit writes them into the model file and reads them back.
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

// Half the passes computing at 1.0 and half at 1.3 times the fast step: the 5th and 95th
// percentiles are the two speeds and the median lies midway, at 1.15, so fast = 1/1.15 and slow = 1.3/1.15.
TEST(ComputeStates, TwoComputeSpeedsGiveTheirFactorsOfTheMedian) {
  const auto raw = probed_run(10, [](int pass) { return pass % 2 == 0 ? 1.3 : 1.0; });
  const auto states = compute_states(raw.points);
  ASSERT_TRUE(states.has_value());
  EXPECT_DOUBLE_EQ(states->fast, 1.0 / 1.15);
  EXPECT_DOUBLE_EQ(states->slow, 1.3 / 1.15);
  EXPECT_DOUBLE_EQ(states->slow / states->fast, 1.3);
}

// Mostly fast with a slow quarter: the median is the fast speed, so avg is the fast state's
// compute and only max moves, to the slow one.
TEST(ComputeStates, AMostlyFastRunPutsAvgAtTheFastSpeed) {
  const auto raw = probed_run(12, [](int pass) { return pass % 4 == 0 ? 1.3 : 1.0; });
  const auto states = compute_states(raw.points);
  ASSERT_TRUE(states.has_value());
  EXPECT_DOUBLE_EQ(states->fast, 1.0);
  EXPECT_GT(states->slow, 1.0);
  EXPECT_LE(states->slow, 1.3);
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
  EXPECT_DOUBLE_EQ(loaded.compute.states->fast, 1.0 / 1.15);
  EXPECT_DOUBLE_EQ(loaded.compute.states->slow, 1.3 / 1.15);

  auto old = probed_run(10, [](int) { return 1.0; });
  for (auto& m : old.points) m.compute_probe.reset();
  const auto old_model = fit_model(old, FitOptions{}).model;
  EXPECT_FALSE(old_model.compute.states.has_value());
  EXPECT_FALSE(model::to_json(old_model).at("compute").contains("states"));
}

// Real probes: 30 ping-pong records of a quick bench on this machine (26 November). Between
// the 5th and 95th percentile lie nine probes in ten, so 26 to 29 of the 30 lie within the band
// the states draw around the median.
TEST(ComputeStates, NineRealProbesInTenLieWithinTheStates) {
  const auto raw = read_raw_file(std::string(AUGUR_TEST_DATA) + "/compute-probes.raw.jsonl");
  std::vector<double> probes;
  for (const auto& m : raw.points) probes.push_back(*m.compute_probe);
  const auto states = compute_states(raw.points);
  ASSERT_TRUE(states.has_value());
  EXPECT_GT(states->fast, 0);
  EXPECT_LT(states->fast, 1);
  EXPECT_GT(states->slow, 1);
  std::sort(probes.begin(), probes.end());
  const double median = (probes[14] + probes[15]) / 2;
  const auto inside = std::count_if(probes.begin(), probes.end(), [&](double p) {
    return p >= states->fast * median * (1 - 1e-12) && p <= states->slow * median * (1 + 1e-12);
  });
  EXPECT_GE(inside, 26);
  EXPECT_LE(inside, 29);
}

}  // namespace
}  // namespace augur::fit
