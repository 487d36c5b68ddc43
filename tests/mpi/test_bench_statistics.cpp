#include <gtest/gtest.h>

#include <cmath>

#include "bench/progress.hpp"
#include "bench/statistics.hpp"

using namespace augur::bench;

TEST(BenchStatistics, SummaryOfASample) {
  const auto s = summarize({3, 1, 2, 10});
  EXPECT_EQ(s.count, 4);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 10);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.mean, 4);
  EXPECT_NEAR(s.stddev, std::sqrt((9 + 4 + 1 + 36) / 3.0), 1e-12);
}

TEST(BenchStatistics, OneSampleHasNoSpread) {
  const auto s = summarize({2e-6});
  EXPECT_DOUBLE_EQ(s.median, 2e-6);
  EXPECT_DOUBLE_EQ(s.stddev, 0);
}

TEST(BenchStatistics, MedianIntervalNeedsEnoughSamples) {
  EXPECT_TRUE(std::isinf(median_ci_relative_halfwidth({1, 1, 1, 1, 1, 1, 1})));
  EXPECT_DOUBLE_EQ(median_ci_relative_halfwidth(std::vector<double>(8, 1.0)), 0);
}

TEST(BenchStatistics, MedianIntervalGrowsWithTheSpread) {
  std::vector<double> tight, wide;
  for (int i = 0; i < 40; ++i) {
    tight.push_back(1.0 + 0.001 * i);
    wide.push_back(1.0 + 0.1 * i);
  }
  const double narrow = median_ci_relative_halfwidth(tight);
  EXPECT_LT(narrow, 0.01);
  EXPECT_GT(median_ci_relative_halfwidth(wide), 10 * narrow);
}

TEST(BenchStatistics, StopsWhenTheMedianIsPreciseEnough) {
  const RepetitionLimits limits{8, 100, 10.0, 0.05};
  EXPECT_EQ(further_repetitions(std::vector<double>(20, 1e-6), 20, 0.001, limits), 0);
}

TEST(BenchStatistics, ContinuesWhileTheMedianIsUncertain) {
  const RepetitionLimits limits{8, 100, 10.0, 0.05};
  std::vector<double> noisy;
  for (int i = 0; i < 20; ++i) noisy.push_back(i % 2 ? 1e-6 : 3e-6);
  const int more = further_repetitions(noisy, 20, 0.001, limits);
  EXPECT_GT(more, 0);
  EXPECT_LE(20 + more, limits.max_reps);
}

TEST(BenchStatistics, RunsAtLeastTheMinimumAndStopsAtTheLimits) {
  const RepetitionLimits limits{8, 30, 1.0, 0.05};
  std::vector<double> noisy;
  for (int i = 0; i < 30; ++i) noisy.push_back(i % 2 ? 1e-6 : 3e-6);
  EXPECT_EQ(further_repetitions({1e-6, 1e-6}, 2, 0.0, limits), 6);
  EXPECT_EQ(further_repetitions(noisy, 30, 0.1, limits), 0);                        // max_reps
  EXPECT_EQ(further_repetitions({noisy.begin(), noisy.begin() + 10}, 10, 2.0, limits), 0);  // time
}

TEST(BenchStatistics, DisturbedRepetitionsCountTowardsTheAttemptLimit) {
  const RepetitionLimits limits{8, 30, 100.0, 0.05};
  // Every repetition so far was discarded: keep trying, but not for ever.
  EXPECT_EQ(further_repetitions({}, 8, 0.1, limits), 8);
  EXPECT_EQ(further_repetitions({}, kAttemptsPerRep * 30, 0.1, limits), 0);
}

TEST(BenchProgress, DurationsReadLikeAClock) {
  EXPECT_EQ(format_duration(42.4), "42s");
  EXPECT_EQ(format_duration(185), "3m05s");
  EXPECT_EQ(format_duration(3720), "1h02m");
}
