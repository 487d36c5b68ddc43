// The time-stamp-counter wall clock of the reverse profiler keeps time with the monotonic clock.
#include <gtest/gtest.h>

#include <chrono>

#include "revprof/cycle_clock.hpp"

namespace {

using augur::revprof::CycleClock;
using Steady = std::chrono::steady_clock;

double steady_seconds() { return std::chrono::duration<double>(Steady::now().time_since_epoch()).count(); }

TEST(CycleClock, KeepsTimeWithTheMonotonicClockOverAnInterval) {
  CycleClock::calibrate();
  if (!CycleClock::usable()) GTEST_SKIP() << "the kernel does not report a constant, non-stop counter";
  const double steady0 = steady_seconds(), cycle0 = CycleClock::seconds();
  while (steady_seconds() - steady0 < 0.03) {
  }
  const double steady = steady_seconds() - steady0, cycle = CycleClock::seconds() - cycle0;
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
