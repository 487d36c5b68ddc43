// Pooling the passes of a point: robust to one slow pass, honest about the spread between passes.
#include <gtest/gtest.h>

#include <cmath>

#include "fit/machine_state.hpp"
#include "fit/pooling.hpp"
#include "fit/state_bounds.hpp"

namespace {

using augur::fit::Measurement;
using augur::fit::pool_repeated_points;
constexpr auto every_pass = augur::model::StateChoice::typical;

Measurement point(const std::string& op, double bytes, double median, int pass, double stddev = 1e-8) {
  Measurement m{op, 2, bytes, 0.9 * median, median, median, 1.2 * median, stddev, 100, {}, {}, {}};
  m.pass = pass;
  return m;
}

TEST(Pooling, PointsMeasuredOnceAreKeptAsTheyAreInTheirOrder) {
  const std::vector<Measurement> points{point("bcast", 8, 2e-6, 1), point("pingpong", 0, 1e-6, 1)};
  const auto pooled = pool_repeated_points(points, every_pass);
  ASSERT_EQ(pooled.size(), 2u);
  EXPECT_EQ(pooled[0].op, "bcast");
  EXPECT_EQ(pooled[1].op, "pingpong");
  EXPECT_DOUBLE_EQ(pooled[0].stddev, 1e-8);
  EXPECT_EQ(pooled[0].reps, 100);
}

TEST(Pooling, TheMedianOfThreePassesIgnoresOneSlowPass) {
  const std::vector<Measurement> points{point("bcast", 8, 1.0e-6, 1), point("bcast", 16, 1.1e-6, 1),
                                        point("bcast", 8, 3.0e-6, 2), point("bcast", 16, 1.2e-6, 2),
                                        point("bcast", 8, 1.1e-6, 3), point("bcast", 16, 1.0e-6, 3)};
  const auto pooled = pool_repeated_points(points, every_pass);
  ASSERT_EQ(pooled.size(), 2u);
  EXPECT_EQ(pooled[0].bytes, 8);
  EXPECT_DOUBLE_EQ(pooled[0].median, 1.1e-6);
  EXPECT_DOUBLE_EQ(pooled[1].median, 1.1e-6);
  EXPECT_DOUBLE_EQ(pooled[0].min, 0.9e-6);
  EXPECT_DOUBLE_EQ(pooled[0].max, 1.2 * 3.0e-6);
  EXPECT_EQ(pooled[0].reps, 300);
  EXPECT_EQ(pooled[0].pass, 1);
  EXPECT_LE(pooled[0].min, pooled[0].mean);
  EXPECT_LE(pooled[0].mean, pooled[0].max);
}

TEST(Pooling, TheErrorComesFromTheSpreadBetweenPassesWhenItIsLarger) {
  // Each pass is sure of itself (std 1e-9 over 100 reps), but the passes disagree by 20%.
  const std::vector<Measurement> points{point("send", 0, 1.0e-6, 1, 1e-9), point("send", 0, 1.2e-6, 2, 1e-9)};
  const auto m = pool_repeated_points(points, every_pass).at(0);
  const double standard_error = m.stddev / std::sqrt(m.reps);
  // Two medians 0.2 µs apart: their sample std is 0.1414 µs, over √2.
  EXPECT_NEAR(standard_error, 0.1e-6, 1e-9);
  EXPECT_DOUBLE_EQ(m.median, 1.1e-6);

  // Passes that agree keep the (smaller) error they report of themselves, averaged over two.
  const std::vector<Measurement> agreeing{point("send", 0, 1e-6, 1, 1e-7), point("send", 0, 1e-6, 2, 1e-7)};
  const auto a = pool_repeated_points(agreeing, every_pass).at(0);
  EXPECT_NEAR(a.stddev / std::sqrt(a.reps), 1e-8 / std::sqrt(2.0), 1e-12);
}

TEST(Pooling, RoleTimesAndSkewArePooledByMedian) {
  std::vector<Measurement> points;
  for (int pass = 1; pass <= 3; ++pass) {
    auto m = point("bcast", 64, 2e-6, pass);
    m.roles = augur::fit::RoleTimes{1e-6 * pass, 2e-6 * pass};
    m.skew = 1e-8 * pass;
    points.push_back(m);
  }
  const auto m = pool_repeated_points(points, every_pass).at(0);
  ASSERT_TRUE(m.roles && m.skew);
  EXPECT_DOUBLE_EQ(m.roles->root, 2e-6);
  EXPECT_DOUBLE_EQ(m.roles->others, 4e-6);
  EXPECT_DOUBLE_EQ(*m.skew, 2e-8);
  EXPECT_FALSE(m.clock_error.has_value());
}

// A run whose probe found the machine fast (0.15 µs) for most points and slow (0.40 µs) for some.
std::vector<Measurement> two_state_run() {
  std::vector<Measurement> points;
  for (int i = 0; i < 12; ++i) {
    auto m = point("allreduce", 8 * (i + 1), 1e-6, 1);
    m.state_probe = (i % 4 == 3) ? 0.40e-6 : 0.15e-6;
    points.push_back(m);
  }
  return points;
}

TEST(MachineStates, TheFastStateThatRecursIsTheReferenceAndTheOtherIsCounted) {
  const auto states = augur::fit::machine_states(two_state_run());
  EXPECT_EQ(states.probed, 12);
  EXPECT_DOUBLE_EQ(states.reference, 0.15e-6);
  EXPECT_EQ(states.elsewhere, 3);
  EXPECT_DOUBLE_EQ(states.elsewhere_probe, 0.40e-6);
  EXPECT_NE(augur::fit::states_summary(states, augur::model::StateChoice::typical).find("3 of 12"), std::string::npos);
  const auto again = augur::model::MachineStates::from_json(states.to_json());
  ASSERT_TRUE(again);
  EXPECT_DOUBLE_EQ(again->reference, 0.15e-6);
}

TEST(MachineStates, FewProbesOrOneStateSelectNothing) {
  auto few = two_state_run();
  few.resize(6);
  const auto states = augur::fit::machine_states(few);
  EXPECT_EQ(states.elsewhere, 0);
  EXPECT_TRUE(augur::fit::states_summary(states, augur::model::StateChoice::reference).empty());
  auto one_state = two_state_run();
  for (auto& m : one_state) m.state_probe = 0.15e-6;
  EXPECT_EQ(augur::fit::machine_states(one_state).elsewhere, 0);
}

// A bench that met the faster state (0.26 µs) in 7 of its 100 probes and the slower (0.7 µs) in
// the rest, as an MPICH bench here did in 6% of its probes: the 10th percentile lies in the
// slower state, the 5th in the faster.
TEST(MachineStates, AFasterStateMetInAFewOfTheProbesIsTheReference) {
  std::vector<Measurement> points;
  for (int i = 0; i < 100; ++i) {
    auto m = point("sendrecv", 8 * (i + 1), 1e-6, 1);
    m.state_probe = (i % 16 == 0) ? 0.26e-6 : 0.7e-6 + 1e-9 * i;
    points.push_back(m);
  }
  const auto states = augur::fit::machine_states(points);
  EXPECT_DOUBLE_EQ(states.reference, 0.26e-6);
  EXPECT_DOUBLE_EQ(states.to_json().at("scaling_probe").get<double>(), states.reference);
  EXPECT_EQ(states.elsewhere, 93);
}

// One point's passes with these medians (µs), in this order.
std::vector<Measurement> passes_of(const std::vector<double>& medians_us) {
  std::vector<Measurement> points;
  for (std::size_t i = 0; i < medians_us.size(); ++i)
    points.push_back(point("allreduce", 8, medians_us[i] * 1e-6, static_cast<int>(i) + 1));
  return points;
}

TEST(Pooling, TheReferenceStatePoolsTheFasterHalfOfAPointsPasses) {
  // Eight passes in two levels, half of them fast: typical pooling lands between the levels, the
  // reference state on the fast one, whatever the order.
  const auto points = passes_of({2.9, 2.0, 2.9, 2.1, 2.8, 2.0, 3.0, 2.1});
  const auto reference = pool_repeated_points(points, augur::model::StateChoice::reference).at(0);
  EXPECT_DOUBLE_EQ(reference.median, 2.05e-6);  // of 2.0, 2.0, 2.1 and 2.1 µs
  EXPECT_EQ(reference.reps, 400);
  EXPECT_DOUBLE_EQ(reference.max, 1.2 * 2.1e-6);  // the slow passes' maxima set aside
  EXPECT_DOUBLE_EQ(pool_repeated_points(points, every_pass).at(0).median, 2.45e-6);
}

TEST(Pooling, AFastPassThatDoesNotRecurIsNotTheMachinesState) {
  // One pass of six in a fast state: the faster half is the slow state's.
  const auto one_fast = pool_repeated_points(passes_of({2.9, 1.0, 2.8, 2.7, 2.9, 2.8}), augur::model::StateChoice::reference).at(0);
  EXPECT_DOUBLE_EQ(one_fast.median, 2.7e-6);
  EXPECT_EQ(one_fast.reps, 300);
}

TEST(Pooling, TheReferenceStateIsTheLowerQuartileWhateverThePassCount) {
  // 5 and 25 passes spread alike over 1–3.4 µs: more passes estimate the same quartile, where
  // the fastest few would move towards the fastest pass as the count grows.
  for (const int count : {5, 25}) {
    std::vector<double> medians_us;
    for (int i = count - 1; i >= 0; --i) medians_us.push_back(1.0 + 2.4 * i / (count - 1));
    const auto pooled = pool_repeated_points(passes_of(medians_us), augur::model::StateChoice::reference).at(0);
    EXPECT_NEAR(pooled.median, 1.6e-6, 1e-15) << count << " passes";
    EXPECT_NEAR(pooled.median, augur::fit::quantile(medians_us, 0.25) * 1e-6, 1e-15) << count << " passes";
  }
}

TEST(Pooling, TheReferenceStateNeverKeepsMoreThanHalfOfAPointsPasses) {
  EXPECT_DOUBLE_EQ(pool_repeated_points(passes_of({1.6, 1.0, 1.04}), augur::model::StateChoice::reference).at(0).median,
                   1.02e-6);
  EXPECT_DOUBLE_EQ(pool_repeated_points(passes_of({1.6, 1.0}), augur::model::StateChoice::reference).at(0).median,
                   1.0e-6);
  const auto once = pool_repeated_points(passes_of({1.6}), augur::model::StateChoice::reference).at(0);
  EXPECT_DOUBLE_EQ(once.median, 1.6e-6);
  EXPECT_EQ(once.reps, 100);
}

// Ten passes of a run over TCP: an 8-byte allreduce at twice the probe, and a 1 MiB ping-pong at
// about a millisecond whatever the probe; the probe read 10 µs in 2 passes and 15 µs in 8.
std::vector<Measurement> run_in_two_spells() {
  std::vector<Measurement> points;
  for (int pass = 1; pass <= 10; ++pass) {
    const double probe = pass <= 2 ? 10e-6 : 15e-6;
    auto small = point("allreduce", 8, 2 * probe, pass);
    small.state_probe = probe;
    auto large = point("pingpong", 1 << 20, (1.0 + 0.01 * pass) * 1e-3, pass);
    large.state_probe = probe;
    points.push_back(small);
    points.push_back(large);
  }
  return points;
}

TEST(Pooling, ALatencyBoundPointIsScaledToTheFasterSpellsProbe) {
  const auto points = run_in_two_spells();
  EXPECT_DOUBLE_EQ(augur::fit::machine_states(points).reference, 10e-6);
  const auto small = pool_repeated_points(points, augur::model::StateChoice::reference).at(0);
  // The faster half of its passes would be 3 of the slower spell's and 2 of the faster's: 30 µs.
  EXPECT_DOUBLE_EQ(small.median, 20e-6);
  EXPECT_DOUBLE_EQ(small.max, 1.2 * 20e-6);
  EXPECT_EQ(small.reps, 1000);
  ASSERT_TRUE(small.state_probe);
  EXPECT_DOUBLE_EQ(*small.state_probe, 10e-6);
}

TEST(Pooling, ABandwidthBoundPointOrOneWithoutProbesKeepsTheFasterHalf) {
  auto points = run_in_two_spells();
  const auto large = pool_repeated_points(points, augur::model::StateChoice::reference).at(1);
  EXPECT_DOUBLE_EQ(large.median, 1.03e-3);  // passes 1–5, unscaled
  EXPECT_EQ(large.reps, 500);
  for (auto& m : points) m.state_probe.reset();
  EXPECT_DOUBLE_EQ(pool_repeated_points(points, augur::model::StateChoice::reference).at(0).median, 30e-6);
}

TEST(Pooling, TypicalPoolingDoesNotScale) {
  EXPECT_DOUBLE_EQ(pool_repeated_points(run_in_two_spells(), every_pass).at(0).median, 30e-6);
}

}  // namespace

// Twelve passes of a 1 MiB sendrecv under MPICH here: 3 in the faster state (probe 0.26 µs,
// 200–206 µs) and 9 in the slower (probe 0.7 µs, 370–570 µs). The faster half of all twelve
// would pool 3 fast and 3 slow passes: 288 µs, between the states.
std::vector<Measurement> sendrecv_in_two_states() {
  std::vector<Measurement> points;
  for (int pass = 1; pass <= 12; ++pass) {
    const bool fast = pass % 4 == 1;  // passes 1, 5, 9
    auto m = point("sendrecv", 1 << 20, fast ? (200 + pass / 4 * 3) * 1e-6 : (330 + 20 * pass) * 1e-6, pass);
    m.state_probe = fast ? 0.26e-6 : 0.7e-6;
    points.push_back(m);
  }
  return points;
}

TEST(Pooling, ABandwidthBoundPointIsPooledFromItsPassesInTheReferenceStateWhenTheyAreFaster) {
  auto points = sendrecv_in_two_states();
  const auto states = augur::fit::machine_states(points);
  ASSERT_GT(states.limit, 0.26e-6);
  ASSERT_LT(states.limit, 0.7e-6);
  // The faster half of the three in the reference state: 200 and 203 µs.
  EXPECT_DOUBLE_EQ(pool_repeated_points(points, augur::model::StateChoice::reference, states).at(0).median, 201.5e-6);
  // One pass in the reference state is still the faster state's time: 200 µs, not the median of
  // the faster half of all ten (200 and 370–450 µs), 390 µs.
  points.erase(points.begin() + 8);
  points.erase(points.begin() + 4);
  EXPECT_DOUBLE_EQ(pool_repeated_points(points, augur::model::StateChoice::reference, states).at(0).median, 200e-6);
}

// A 1 MiB alltoallv under MPICH here took 1,396 µs in the one pass whose probe read the faster
// state and 370–1,300 µs in the others: where the reference state's passes are the slower, the
// point is the faster half of all.
TEST(Pooling, APointWhoseReferenceStatePassesAreSlowerKeepsTheFasterHalfOfAll) {
  auto points = sendrecv_in_two_states();
  const auto states = augur::fit::machine_states(points);
  for (auto& m : points)
    if (*m.state_probe < states.limit) m.median = 1396e-6;
  // The faster half of all twelve: the 3 fast-probe passes now the slowest, so the six fastest
  // of the nine others, 370–490 µs.
  EXPECT_DOUBLE_EQ(pool_repeated_points(points, augur::model::StateChoice::reference, states).at(0).median,
                   (410e-6 + 450e-6) / 2);
}
