#include <algorithm>
#include <random>
#include <stdexcept>
#include <utility>

#include "node/kernels.hpp"

namespace augur::node {
namespace {

// next[i] is the index of the next load: the first word of every cache line, visited in one
// random cycle (Sattolo's shuffle makes a single cycle), so each load waits for the one before
// and the hardware prefetcher cannot guess the address.
std::vector<std::size_t> random_cycle(std::size_t bytes, std::size_t line_bytes) {
  const std::size_t words_per_line = std::max<std::size_t>(1, line_bytes / sizeof(std::size_t));
  const std::size_t lines = std::max<std::size_t>(2, bytes / (words_per_line * sizeof(std::size_t)));
  std::vector<std::size_t> order(lines);
  for (std::size_t i = 0; i < lines; ++i) order[i] = i;
  std::mt19937_64 random(lines);
  for (std::size_t i = lines - 1; i > 0; --i)
    std::swap(order[i], order[std::uniform_int_distribution<std::size_t>(0, i - 1)(random)]);
  std::vector<std::size_t> next(lines * words_per_line, 0);
  for (std::size_t i = 0; i < lines; ++i) next[i * words_per_line] = order[i] * words_per_line;
  return next;
}

std::size_t chase(const std::vector<std::size_t>& next, std::size_t at, std::uint64_t n) {
  for (std::uint64_t i = 0; i < n; ++i) at = next[at];
  return at;
}

}  // namespace

double seconds_per_access(std::size_t bytes, std::size_t line_bytes, const Timing& timing) {
  // No separate warm-up lap: best_seconds_per_unit's first runs, two slices' worth of loads, go
  // round a set that fits a cache many times before the timed runs, and a lap over a set that
  // fits none would only cost time (a quarter of a second at 64 MiB).
  const auto cycle = random_cycle(bytes, line_bytes);
  std::size_t at = 0;
  const double seconds = best_seconds_per_unit([&](std::uint64_t n) { at = chase(cycle, at, n); }, timing);
  keep(std::uint64_t(at));
  return seconds;
}

std::vector<model::CacheSweepPoint> cache_sweep(std::size_t smallest, std::size_t largest, std::size_t line_bytes,
                                                const Timing& timing) {
  if (smallest == 0 || largest < smallest) throw std::invalid_argument("cache sweep: need 0 < smallest <= largest");
  std::vector<model::CacheSweepPoint> sweep;
  for (std::size_t bytes = smallest; bytes <= largest; bytes *= 2)
    sweep.push_back({double(bytes), seconds_per_access(bytes, line_bytes, timing)});
  return sweep;
}

}  // namespace augur::node
