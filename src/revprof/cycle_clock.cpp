#include "revprof/cycle_clock.hpp"

#include <time.h>

#include <cstdint>
#include <fstream>
#include <string>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace augur::revprof {
namespace {

bool usable_ = false;
double seconds_per_tick_ = 0;
std::uint64_t origin_ = 0;

double monotonic() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

bool kernel_trusts_the_counter() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line))
    if (line.rfind("flags", 0) == 0)
      return line.find(" constant_tsc") != std::string::npos && line.find(" nonstop_tsc") != std::string::npos;
  return false;
}

}  // namespace

#if defined(__x86_64__)
struct Reading {
  double wall = 0;
  std::uint64_t tick = 0;
};

// Both clocks at one instant: the counter read between two monotonic readings, again if the
// thread was preempted in between (a slice there would skew the rate by its length).
Reading read_both() {
  Reading r;
  for (int attempt = 0; attempt < 100; ++attempt) {
    const double before = monotonic();
    r.tick = __rdtsc();
    const double after = monotonic();
    r.wall = 0.5 * (before + after);
    if (after - before < 1e-6) break;
  }
  return r;
}

void CycleClock::calibrate(double calibration) {
  if (!kernel_trusts_the_counter()) return;
  const Reading first = read_both();
  while (monotonic() - first.wall < calibration) {
  }
  const Reading last = read_both();
  if (last.tick <= first.tick) return;
  seconds_per_tick_ = (last.wall - first.wall) / static_cast<double>(last.tick - first.tick);
  origin_ = first.tick;
  usable_ = true;
}

double CycleClock::seconds() { return static_cast<double>(__rdtsc() - origin_) * seconds_per_tick_; }
#else
void CycleClock::calibrate(double) {}
double CycleClock::seconds() { return monotonic(); }
#endif

bool CycleClock::usable() { return usable_; }

}  // namespace augur::revprof
