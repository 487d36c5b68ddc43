// The reverse profiler's compute clock: wall time for short intervals, the CPU clock for long
// ones, and preemption never counted as compute.
#include <gtest/gtest.h>

#include "revprof/compute_clock.hpp"

namespace {

using augur::revprof::ComputeClock;

// Clocks the test advances by hand: `wall` always, `cpu` only while the thread runs.
double wall_now = 0, cpu_now = 0;
double wall() { return wall_now; }
double cpu() { return cpu_now; }
void run(double seconds) {
  wall_now += seconds;
  cpu_now += seconds;
}
void preempted(double seconds) { wall_now += seconds; }

constexpr double kShort = 50e-6;

class ComputeClockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    wall_now = 100;
    cpu_now = 3;
    clock.start();
  }
  ComputeClock clock{wall, cpu, {}, kShort};
};

TEST_F(ComputeClockTest, ShortIntervalsAreTimedWithoutReadingTheCpuClock) {
  const long before = clock.cpu_readings();
  for (int i = 0; i < 1000; ++i) {
    run(2e-6);
    EXPECT_NEAR(clock.enter(), 2e-6, 1e-12);
    run(1e-6);  // a small MPI call
    clock.leave();
  }
  EXPECT_EQ(clock.cpu_readings(), before);
}

TEST_F(ComputeClockTest, LongComputeAfterShortCallsCountsOnlyItsOwnCpuTime) {
  for (int i = 0; i < 10; ++i) {
    run(1e-6);
    clock.enter();
    run(3e-6);
    clock.leave();
  }
  run(1e-3);
  EXPECT_NEAR(clock.enter(), 1e-3, 1e-12);
}

TEST_F(ComputeClockTest, PreemptionDuringLongComputeIsNotCompute) {
  run(2e-3);
  preempted(10e-3);
  run(1e-3);
  EXPECT_NEAR(clock.enter(), 3e-3, 1e-12);
}

TEST_F(ComputeClockTest, PreemptionInsideALongCallDoesNotEatTheNextCompute) {
  run(1e-6);
  clock.enter();
  preempted(5e-3);  // the call is long: it was preempted
  run(1e-6);
  clock.leave();
  run(1e-3);
  EXPECT_NEAR(clock.enter(), 1e-3, 1e-12);
}

TEST_F(ComputeClockTest, TheCostOfReadingTheCpuClockIsTakenOff) {
  ComputeClock costly{wall, cpu, {1e-6, 0}, kShort};
  costly.start();
  run(1e-3);
  EXPECT_NEAR(costly.enter(), 1e-3 - 1e-6, 1e-12);
  costly.leave();
  run(0.5e-6);  // never negative, even below the reading's cost
  EXPECT_GE(costly.enter(), 0.0);
}

TEST_F(ComputeClockTest, TheCostOfReadingTheWallClockIsTakenOffShortIntervals) {
  ComputeClock costly{wall, cpu, {0, 25e-9}, kShort};
  costly.start();
  run(1e-6);
  EXPECT_NEAR(costly.enter(), 1e-6 - 25e-9, 1e-12);
  costly.leave();
  run(10e-9);  // back-to-back calls: no phantom compute
  EXPECT_EQ(costly.enter(), 0.0);
}

TEST_F(ComputeClockTest, TheInterposersWorkAtEachCallBoundaryIsTakenOffShortIntervals) {
  ComputeClock costly{wall, cpu, {0, 25e-9, 15e-9}, kShort};
  costly.start();
  run(1e-6);
  EXPECT_NEAR(costly.enter(), 1e-6 - 40e-9, 1e-12);
  costly.leave();
  run(30e-9);  // the wrappers' own work between two calls
  EXPECT_EQ(costly.enter(), 0.0);
  costly.leave();
  run(1e-3);  // a long interval is timed by the CPU clock, which the boundary does not touch
  EXPECT_NEAR(costly.enter(), 1e-3, 1e-12);
}

// A loop that reads the clock: each reading is part of the program's time, so with the costs of
// the readings and the call boundary calibrated the loop still advances by all the wall time it
// takes, where enter/leave would credit it almost nothing.
TEST_F(ComputeClockTest, CallsThatArePartOfTheProgramsTimeCountWhole) {
  ComputeClock costly{wall, cpu, {0, 25e-9, 15e-9}, kShort};
  costly.start();
  double counted = 0;
  for (int i = 0; i < 1000; ++i) {
    run(80e-9);  // the loop's body, the call and its clock reading
    counted += costly.pass();
  }
  EXPECT_NEAR(counted, 1000 * 80e-9, 1e-9);  // rounding of 1000 differences of clocks near 100 s
  run(1e-6);  // an ordinary call next: only what follows the last reading is its compute
  EXPECT_NEAR(costly.enter(), 1e-6 - 40e-9, 1e-12);
}

TEST_F(ComputeClockTest, APassAfterALongIntervalCountsItsCpuTimeNotItsPreemption) {
  run(1e-3);
  preempted(10e-3);
  EXPECT_NEAR(clock.pass(), 1e-3, 1e-12);
  run(2e-6);
  EXPECT_NEAR(clock.pass(), 2e-6, 1e-12);
}

TEST_F(ComputeClockTest, ACountedCallIsItsTimeWithItsEntryAndNotItsPreemption) {
  ComputeClock costly{wall, cpu, {0, 25e-9, 15e-9}, kShort};
  costly.start();
  run(1e-6);
  EXPECT_NEAR(costly.enter(), 1e-6 - 40e-9, 1e-12);
  run(300e-9);
  EXPECT_NEAR(costly.count_call(), 300e-9 + 40e-9, 1e-12);
  run(100e-9);  // the rest of the call is the interposer's
  costly.leave();
  run(2e-6);
  EXPECT_NEAR(costly.enter(), 2e-6 - 40e-9, 1e-12);
  run(1e-6);
  preempted(5e-3);
  EXPECT_NEAR(costly.count_call(), 1e-6 + 40e-9, 1e-12);
  costly.leave();
  run(1e-3);
  EXPECT_NEAR(costly.enter(), 1e-3, 1e-12);
}

}  // namespace
