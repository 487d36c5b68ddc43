// The time-stamp-counter wall clock of the reverse profiler keeps time with the monotonic clock.
#include <gtest/gtest.h>

#include <chrono>
#include <utility>

#include "revprof/cycle_clock.hpp"

namespace {

using augur::revprof::CycleClock;
using Steady = std::chrono::steady_clock;

double steady_seconds() { return std::chrono::duration<double>(Steady::now().time_since_epoch()).count(); }

// Both clocks at one instant, read again if the test was preempted between them.
std::pair<double, double> read_both() {
  std::pair<double, double> r;
  for (int attempt = 0; attempt < 100; ++attempt) {
    const double before = steady_seconds();
    r = {before, CycleClock::seconds()};
    if (steady_seconds() - before < 1e-5) break;
  }
  return r;
}

TEST(CycleClock, KeepsTimeWithTheMonotonicClockOverAnInterval) {
  CycleClock::calibrate();
  if (!CycleClock::usable()) GTEST_SKIP() << "the kernel does not report a constant, non-stop counter";
  const auto [steady0, cycle0] = read_both();
  while (steady_seconds() - steady0 < 0.03) {
  }
  const auto [steady1, cycle1] = read_both();
  const double steady = steady1 - steady0, cycle = cycle1 - cycle0;
  EXPECT_NEAR(cycle, steady, 0.01 * steady + 20e-6);
}

TEST(CycleClock, NeverRunsBackwards) {
  CycleClock::calibrate();
  if (!CycleClock::usable()) GTEST_SKIP() << "the kernel does not report a constant, non-stop counter";
  double last = CycleClock::seconds();
  for (int i = 0; i < 100000; ++i) {
    const double now = CycleClock::seconds();
    ASSERT_GE(now, last);
    last = now;
  }
}

}  // namespace
