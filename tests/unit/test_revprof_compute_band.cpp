// Compute on the three clocks: with the model's compute.states the min clock takes the compute
// times fast and the max clock times slow, avg the compute as measured; without them every
// clock takes the same, as before. The report splits the band into compute and communication.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "model/model_json.hpp"
#include "revprof/compute_band.hpp"
#include "revprof/ledger.hpp"
#include "revprof/report.hpp"

namespace augur::revprof {
namespace {

using model::Bound;

model::Compute with_states(double fast, double slow) {
  model::Compute c;
  c.states = model::StateFactors{fast, slow};
  return c;
}

// A rank that computes `intervals` between calls that each cost `call` on the three clocks,
// as the shim's clock moves: compute, then the call.
Times run_of(const Times& factors, const std::vector<double>& intervals, const Times& call) {
  Times now;
  for (double seconds : intervals) now = now + compute_on_each_clock(factors, seconds) + call;
  return now;
}

const std::vector<double> kIntervals{0.125, 0.5, 0.0625, 1.25};  // 1.9375 s in all
const Times kCall{{1e-6, 2e-6, 4e-6}};

TEST(ComputeBand, StatesMoveMinAndMaxByTheirFactorsOfTheCompute) {
  const auto factors = compute_factors(with_states(0.9, 1.2));
  const Times without = run_of(Times::same(1), kIntervals, kCall);
  const Times with = run_of(factors, kIntervals, kCall);
  const double compute = 1.9375;
  EXPECT_NEAR(with[Bound::min] - without[Bound::min], (0.9 - 1) * compute, 1e-12);
  EXPECT_NEAR(with[Bound::max] - without[Bound::max], (1.2 - 1) * compute, 1e-12);
  // Each interval is exactly 0.9 and 1.2 times itself on the min and max clocks.
  for (double seconds : kIntervals) {
    const Times added = compute_on_each_clock(factors, seconds);
    EXPECT_EQ(added[Bound::min], 0.9 * seconds);
    EXPECT_EQ(added[Bound::max], 1.2 * seconds);
  }
}

TEST(ComputeBand, AvgIsTheMeasuredComputeBitForBit) {
  const Times with = run_of(compute_factors(with_states(0.9, 1.2)), kIntervals, kCall);
  const Times before = run_of(Times::same(1), kIntervals, kCall);
  EXPECT_EQ(with[Bound::avg], before[Bound::avg]);
}

// A model from before compute.states: compute moves every clock alike, so the band is the
// communication's alone, as it was.
TEST(ComputeBand, AModelWithoutComputeStatesKeepsTheBandAsBefore) {
  const auto factors = compute_factors(model::Compute{});
  EXPECT_EQ(factors, Times::same(1));
  Times old_way;  // what the shim did before: the same seconds on every clock
  for (double seconds : kIntervals) old_way = old_way + seconds + kCall;
  EXPECT_EQ(run_of(factors, kIntervals, kCall), old_way);
}

// A model file augur fit wrote before compute.states existed loads without them.
TEST(ComputeBand, AnOldModelFileGivesComputeNoBand) {
  const auto model = model::load_model_file(AUGUR_TEST_DATA "/fitted-before-states.json");
  EXPECT_FALSE(model.compute.states.has_value());
  EXPECT_EQ(compute_factors(model.compute), Times::same(1));
}

nlohmann::json rank(int id, const Times& finish, const Times& compute) {
  auto json = Ledger{}.to_json(id, finish[Bound::avg]);
  json["finish_bounds"] = bounds_to_json(finish.at);
  json["compute_bounds"] = bounds_to_json(compute.at);
  return json;
}

// Rank 1 finishes last on every clock: 10 s of compute at 0.9 and 1.2, and MPI taking 1.0, 1.5
// and 2.5 s on the three clocks. Below avg: 1.5 s, of which compute 1 s; above: 3 s, of which
// compute 2 s.
TEST(ComputeBand, TheBandSplitsIntoTheLastRanksComputeAndTheRest) {
  const std::vector<nlohmann::json> ranks{rank(0, {{8, 9, 10}}, {{4.5, 5, 6}}),
                                          rank(1, {{10, 11.5, 14.5}}, {{9, 10, 12}})};
  const auto band = band_split(bounds_to_json({10, 11.5, 14.5}), ranks);
  EXPECT_DOUBLE_EQ(band["below"]["total"].get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(band["below"]["compute"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(band["below"]["communication"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(band["above"]["total"].get<double>(), 3.0);
  EXPECT_DOUBLE_EQ(band["above"]["compute"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(band["above"]["communication"].get<double>(), 1.0);

  const auto report = make_report(ranks, {{"machine", "m"}, {"compute_states", {{"fast", 0.9}, {"slow", 1.2}}}});
  ASSERT_TRUE(report.contains("band"));
  EXPECT_EQ(report["band"], band);
  const auto text = format_report(report);
  EXPECT_NE(text.find("band around avg: -1.5 s … +3 s; compute -1 s … +2 s, communication -500 ms … +1 s"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("compute states 0.9 … 1.2"), std::string::npos) << text;
}

// Compute never accounts for more than the band: a rank that finishes last on the max clock
// by waiting for another leaves its compute's growth partly hidden in that wait.
TEST(ComputeBand, TheComputeShareIsAtMostTheBand) {
  const auto band = band_split(bounds_to_json({10, 10, 10.5}), {rank(0, {{10, 10, 10.5}}, {{9, 10, 12}})});
  EXPECT_DOUBLE_EQ(band["above"]["compute"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(band["above"]["communication"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(band["below"]["compute"].get<double>(), 0.0);
}

// The compute share is the last rank's on each side's clock: rank 0 finishes last on the min
// clock (compute 1 s below avg), rank 1 on the max clock (compute 3 s above avg), and of two
// ranks tied on a clock the first.
TEST(ComputeBand, EachSideTakesTheComputeOfTheRankLastOnItsClock) {
  const std::vector<nlohmann::json> ranks{rank(0, {{9, 10, 11}}, {{4, 5, 6}}),
                                          rank(1, {{8, 10, 14}}, {{3, 5, 8}}),
                                          rank(2, {{9, 10, 14}}, {{2, 5, 9}})};
  const auto band = band_split(bounds_to_json({9, 10, 14}), ranks);
  EXPECT_DOUBLE_EQ(band["below"]["compute"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(band["above"]["compute"].get<double>(), 3.0);
  EXPECT_EQ(make_report(ranks, {{"machine", "m"}})["band"], band);
}

// The latest finishes come from the ranks (the report's predicted_bounds); bounds no rank
// reaches are a caller's mistake, said rather than priced from some other rank.
TEST(ComputeBand, BoundsThatNoRankReachesAreRefused) {
  EXPECT_THROW(band_split(bounds_to_json({9, 10, 12}), {rank(0, {{9, 10, 11}}, Times::same(5))}),
               std::invalid_argument);
}

TEST(ComputeBand, WithoutComputeStatesTheReportSaysSo) {
  const auto report = make_report({rank(0, {{9, 10, 11}}, Times::same(5))}, {{"machine", "m"}});
  EXPECT_DOUBLE_EQ(report["band"]["above"]["compute"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(report["band"]["above"]["communication"].get<double>(), 1.0);
  const auto text = format_report(report);
  EXPECT_NE(text.find("the model has no compute.states"), std::string::npos) << text;
  EXPECT_NE(text.find("compute 0 s, communication -1 s … +1 s"), std::string::npos) << text;
}

}  // namespace
}  // namespace augur::revprof
