// The rank's CPU clock: the calling thread's time while it is the busiest thread, the busiest
// thread's time once other threads compute, never the threads' sum.
#include <gtest/gtest.h>
#include <time.h>

#include <future>
#include <thread>
#include <vector>

#include "revprof/rank_cpu_clock.hpp"

namespace {

using augur::revprof::RankCpuClock;

double thread_cpu() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Computes until this thread has had `seconds` of CPU, however busy the machine is.
void compute(double seconds) {
  const double until = thread_cpu() + seconds;
  volatile double sink = 0;
  while (thread_cpu() < until)
    for (int i = 0; i < 1000; ++i) sink = sink + 1e-9 * i;
}

// Runs `seconds` of compute on each of `workers` threads while the caller waits in join.
void workers_compute(int workers, double seconds) {
  std::vector<std::thread> pool;
  for (int i = 0; i < workers; ++i) pool.emplace_back(compute, seconds);
  for (auto& t : pool) t.join();
}

TEST(RankCpuClock, FollowsTheCallingThreadWhileItComputesAlone) {
  RankCpuClock clock;
  const double start = clock.read();
  compute(0.03);
  const double spent = clock.read() - start;
  EXPECT_NEAR(spent, 0.03, 0.005);
  EXPECT_FALSE(clock.follows_every_thread());
}

TEST(RankCpuClock, CountsAWorkerThatComputesWhileTheCallerWaits) {
  RankCpuClock clock;
  const double start = clock.read();
  const double caller_start = thread_cpu();
  workers_compute(1, 0.08);
  const double spent = clock.read() - start;
  EXPECT_LT(thread_cpu() - caller_start, 0.01);  // the old rule's measure saw almost nothing
  EXPECT_NEAR(spent, 0.08, 0.01);
  EXPECT_TRUE(clock.follows_every_thread());
}

// A pool's thread: computes, then waits (off the CPU) until released, so it is still there
// when the clock is read, as an OpenMP team is between parallel regions.
class PoolThread {
 public:
  explicit PoolThread(double seconds)
      : thread_([this, seconds] {
          compute(seconds);
          done_.set_value();
          release_.get_future().wait();
        }) {}
  ~PoolThread() {
    release_.set_value();
    thread_.join();
  }
  void wait_done() { done_future_.wait(); }

 private:
  std::promise<void> done_, release_;
  std::future<void> done_future_ = done_.get_future();
  std::thread thread_;
};

TEST(RankCpuClock, ParallelWorkersCountAsTheBusiestNotTheirSum) {
  RankCpuClock clock;
  clock.read();
  workers_compute(1, 0.01);  // other threads outwork the caller: every thread is followed
  const double start = clock.read();
  ASSERT_TRUE(clock.follows_every_thread());
  PoolThread heavy(0.06), light(0.02);
  heavy.wait_done();
  light.wait_done();
  EXPECT_NEAR(clock.read() - start, 0.06, 0.01);
}

TEST(RankCpuClock, ThreadsThatEndedBetweenReadingsStillCount) {
  RankCpuClock clock;
  clock.read();
  workers_compute(1, 0.01);
  const double start = clock.read();
  workers_compute(1, 0.05);
  EXPECT_NEAR(clock.read() - start, 0.05, 0.01);
}

TEST(RankCpuClock, TheCallerComputingAfterWorkersKeepsCounting) {
  RankCpuClock clock;
  clock.read();
  workers_compute(1, 0.01);
  const double start = clock.read();
  compute(0.03);
  EXPECT_NEAR(clock.read() - start, 0.03, 0.005);
}

}  // namespace
