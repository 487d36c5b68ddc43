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
void CycleClock::calibrate(double calibration) {
  if (!kernel_trusts_the_counter()) return;
  const double wall0 = monotonic();
  const std::uint64_t tick0 = __rdtsc();
  double wall1 = wall0;
  while (wall1 - wall0 < calibration) wall1 = monotonic();
  const std::uint64_t tick1 = __rdtsc();
  if (tick1 <= tick0) return;
  seconds_per_tick_ = (wall1 - wall0) / static_cast<double>(tick1 - tick0);
  origin_ = tick0;
  usable_ = true;
}

double CycleClock::seconds() { return static_cast<double>(__rdtsc() - origin_) * seconds_per_tick_; }
#else
void CycleClock::calibrate(double) {}
double CycleClock::seconds() { return monotonic(); }
#endif

bool CycleClock::usable() { return usable_; }

}  // namespace augur::revprof
