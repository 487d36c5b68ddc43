// The tolerance search (src/analyze/tolerance_search.cpp) on runs whose crossing is known in
// closed form: it lands within its precision above the crossing, takes a few runs where the run
// is straight around it, never more than its bound where the run bends often, and says "never"
// when the run does not grow enough.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "analyze/tolerance_search.hpp"

using augur::analyze::Crossing;
using augur::analyze::first_crossing;
using augur::analyze::ToleranceSearch;

namespace {

// Runs made, as the sweep does before its searches: the factor 1 and a few samples.
std::map<double, double> samples(const std::function<double(double)>& t, std::initializer_list<double> factors) {
  std::map<double, double> known;
  for (double f : factors) known[f] = t(f);
  return known;
}

// The search's promise: the run reaches the target at the factor and not a precision below it.
void expect_brackets(const std::function<double(double)>& t, const Crossing& c, double target, double crossing,
                     const ToleranceSearch& o) {
  ASSERT_TRUE(std::isfinite(c.factor));
  EXPECT_GE(t(c.factor), target);
  EXPECT_LT(t(c.factor * (1 - o.precision)), target);
  EXPECT_GE(c.factor, crossing);
  EXPECT_LE(c.factor - crossing, o.precision * crossing);
  EXPECT_EQ(c.time, t(c.factor));
}

}  // namespace

// A latency hidden up to 20.5, then 35 latencies a step: a bend inside the bracket [16, 32].
TEST(ToleranceSearch, AHiddenParameterIsFoundOnTheLineItRisesAlong) {
  const auto t = [](double f) { return 1.0 + 0.35 * std::max(0.0, f - 20.5); };
  auto known = samples(t, {1, 2, 4, 8, 16});
  const ToleranceSearch o;
  int calls = 0;
  const auto counted = [&](double f) { return ++calls, t(f); };
  const auto c = first_crossing(counted, known, 1.01, o);
  expect_brackets(t, c, 1.01, 20.5 + 0.01 / 0.35, o);
  EXPECT_EQ(c.runs, calls);
  EXPECT_LE(c.runs, 6);  // the doubling to 32, a run above it, the line's guess and its check
  // A larger growth starts from those runs: two more.
  const auto c5 = first_crossing(counted, known, 1.05, o);
  expect_brackets(t, c5, 1.05, 20.5 + 0.05 / 0.35, o);
  EXPECT_LE(c5.runs, 2);
}

TEST(ToleranceSearch, AStraightRunTakesTheGuessAndItsCheck) {
  const auto t = [](double f) { return 3.0 + 0.2 * f; };
  auto known = samples(t, {1, 1.5, 2, 4});
  const ToleranceSearch o;
  const auto c = first_crossing(t, known, 3.2 * 1.02, o);
  expect_brackets(t, c, 3.2 * 1.02, (3.2 * 1.02 - 3) / 0.2, o);
  EXPECT_EQ(c.runs, 2);
}

// A staircase bends at every step, so no line holds: the search halves, within its bound.
TEST(ToleranceSearch, ARunThatBendsEverywhereIsBisectedWithinTheBound) {
  const auto t = [](double f) { return 1.0 + 0.001 * std::floor(f * 1000) + 0.01 * std::sqrt(f); };
  auto known = samples(t, {1, 2});
  ToleranceSearch o;
  const double target = t(1) * 1.05;
  const auto c = first_crossing(t, known, target, o);
  ASSERT_TRUE(std::isfinite(c.factor));
  EXPECT_GE(t(c.factor), target);
  EXPECT_LT(t(c.below), target);
  EXPECT_LE(c.factor - c.below, o.precision * c.factor);
  EXPECT_LE(c.runs, o.max_runs);
  o.max_runs = 5;  // a tighter bound is kept, and the bracket reached is what it reports
  auto again = samples(t, {1, 2});
  const auto capped = first_crossing(t, again, target, o);
  EXPECT_LE(capped.runs, 5);
  EXPECT_GE(t(capped.factor), target);
  EXPECT_LT(t(capped.below), target);
}

TEST(ToleranceSearch, ARunThatNeverGrowsEnoughIsToleratedUpToTheLargestFactor) {
  const auto t = [](double f) { return 1.0 + 0.001 * std::log(f); };
  auto known = samples(t, {1, 16});
  ToleranceSearch o;
  o.max_factor = 1024;
  const auto c = first_crossing(t, known, 1.01, o);
  EXPECT_FALSE(std::isfinite(c.factor));
  EXPECT_EQ(c.below, 1024);
  EXPECT_EQ(c.runs, 6);  // 32, 64, ..., 1024
}
