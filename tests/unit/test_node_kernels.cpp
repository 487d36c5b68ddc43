// The node kernels behind the model's compute section: each returns a plausible number for any
// machine augur runs on, in a bounded time, and the compute step is the examples' step.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "model/model_json.hpp"
#include "node/cache_info.hpp"
#include "node/kernels.hpp"
#include "node/node.hpp"

namespace augur::node {
namespace {

constexpr std::size_t kMiB = std::size_t(1) << 20;
const Timing kShort{0.005, 0.02, 3};

TEST(NodeTiming, RunsAtLeastTheMinimumAndReturnsTimePerUnit) {
  int calls = 0;
  std::uint64_t last_n = 0;
  const double seconds = best_seconds_per_unit(
      [&](std::uint64_t n) {
        ++calls;
        last_n = n;
      },
      Timing{0, 0, 4});
  EXPECT_EQ(calls, 4);
  EXPECT_EQ(last_n, 1u);
  EXPECT_GE(seconds, 0);
  EXPECT_LT(seconds, 0.01);
}

TEST(NodeTiming, GrowsTheWorkUntilARunFillsTheSlice) {
  std::uint64_t x = 1, largest = 0;
  best_seconds_per_unit(
      [&](std::uint64_t n) {
        x = compute_steps(x, n);
        largest = std::max(largest, n);
      },
      Timing{0.002, 0, 1});
  keep(x);
  EXPECT_GT(largest, 1000u);  // a step takes well under 2 µs anywhere
}

TEST(NodeKernels, ComputeStepIsTheFarmExamplesStep) {
  // examples/farm.c: x = x * 6364136223846793005 + 1442695040888963407; x ^= x >> 29.
  std::uint64_t x = 12345;
  for (int s = 0; s < 3; ++s) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    x ^= x >> 29;
  }
  EXPECT_EQ(compute_steps(12345, 3), x);
  EXPECT_EQ(compute_steps(12345, 0), 12345u);
}

TEST(NodeKernels, StepTimeIsPlausible) {
  const double s = seconds_per_step(kShort);
  EXPECT_GT(s, 1e-11);  // faster than 100 GHz would be wrong
  EXPECT_LT(s, 1e-6);
}

TEST(NodeKernels, FlopRateIsPlausible) {
  const double f = flop_rate(kShort);
  EXPECT_GT(f, 1e7);
  EXPECT_LT(f, 1e13);
}

TEST(NodeKernels, MemoryBandwidthIsPlausible) {
  const double b = memory_bandwidth(32 * kMiB, kShort);
  EXPECT_GT(b, 1e8);   // 100 MB/s
  EXPECT_LT(b, 1e12);  // 1 TB/s
}

TEST(NodeKernels, CacheSweepDoublesTheSizeAndShowsTheCaches) {
  const auto sweep = cache_sweep(4 << 10, 64 * kMiB, cache_line_bytes(), Timing{0.002, 0.005, 3});
  ASSERT_EQ(sweep.size(), 15u);  // 4 KiB … 64 MiB
  EXPECT_EQ(sweep.front().bytes, 4096);
  for (std::size_t i = 1; i < sweep.size(); ++i) EXPECT_EQ(sweep[i].bytes, 2 * sweep[i - 1].bytes);
  for (const auto& point : sweep) {
    EXPECT_GT(point.seconds_per_access, 1e-11) << point.bytes;
    EXPECT_LT(point.seconds_per_access, 1e-5) << point.bytes;
  }
  // 64 MiB visited at random misses at least the first-level cache and its translation buffer.
  EXPECT_GT(sweep.back().seconds_per_access, 2 * sweep.front().seconds_per_access);
}

TEST(NodeKernels, CacheSweepRejectsAnEmptyRange) {
  EXPECT_THROW(cache_sweep(0, 4096, 64, kShort), std::invalid_argument);
  EXPECT_THROW(cache_sweep(8192, 4096, 64, kShort), std::invalid_argument);
}

TEST(NodeSettingsTest, TriadArraysLieBeyondTheLastLevelCache) {
  for (bool quick : {true, false}) {
    const auto s = node_settings(quick);
    EXPECT_GE(s.triad_array_bytes, 32 * kMiB);
    const std::size_t cap = (quick ? 128 : 1024) * kMiB;
    EXPECT_GE(s.triad_array_bytes, std::min(2 * last_level_cache_bytes(), cap));
    EXPECT_LE(s.triad_array_bytes, cap) << "a quick run must not page through gigabytes";
    EXPECT_EQ(s.sweep_smallest, 4096u);
    EXPECT_EQ(s.sweep_largest, 64 * kMiB);
  }
  EXPECT_LT(node_settings(true).kernel.budget, node_settings(false).kernel.budget);
}

TEST(NodeSettingsTest, MeasuredSectionIsCompleteAndLoadsAsAModelsComputeSection) {
  NodeSettings s = node_settings(true);
  s.kernel = s.sweep_point = kShort;
  s.triad_array_bytes = 32 * kMiB;
  s.sweep_largest = 64 << 10;
  const auto c = measure_node(s);
  EXPECT_TRUE(c.knows_step());
  EXPECT_GT(c.flops, 0);
  EXPECT_GT(c.memory_bandwidth, 0);
  ASSERT_EQ(c.cache_sweep.size(), 5u);
  const auto back = model::parse_compute(model::to_json(c), "test");
  EXPECT_DOUBLE_EQ(back.seconds_per_step, c.seconds_per_step);
  EXPECT_DOUBLE_EQ(back.cache_sweep.back().seconds_per_access, c.cache_sweep.back().seconds_per_access);
}

}  // namespace
}  // namespace augur::node
