#include "node/timing.hpp"

#include <algorithm>
#include <chrono>

namespace augur::node {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double seconds_of(const std::function<void(std::uint64_t)>& work, std::uint64_t n) {
  const auto start = Clock::now();
  work(n);
  return seconds_since(start);
}

volatile std::uint64_t integer_sink;
volatile double real_sink;

}  // namespace

double best_seconds_per_unit(const std::function<void(std::uint64_t)>& work, const Timing& timing) {
  std::uint64_t n = 1;
  double seconds = seconds_of(work, n);
  while (seconds < timing.slice) {
    n *= 2;
    seconds = seconds_of(work, n);
  }
  double best = seconds / double(n);
  const auto start = Clock::now();
  for (int run = 1; run < timing.min_runs || seconds_since(start) < timing.budget; ++run)
    best = std::min(best, seconds_of(work, n) / double(n));
  return best;
}

void keep(std::uint64_t value) { integer_sink = value; }
void keep(double value) { real_sink = value; }

}  // namespace augur::node
