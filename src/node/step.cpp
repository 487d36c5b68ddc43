#include "node/kernels.hpp"

namespace augur::node {

// Each step depends on the last through a multiply, an add, a shift and an xor, so a step lasts
// as long as that chain's latency: the compiler can neither vectorise it nor find a shortcut.
std::uint64_t compute_steps(std::uint64_t x, std::uint64_t n) {
  for (std::uint64_t s = 0; s < n; ++s) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    x ^= x >> 29;
  }
  return x;
}

double seconds_per_step(const Timing& timing) {
  std::uint64_t x = 0x5bd1e995ULL;
  const double seconds = best_seconds_per_unit([&](std::uint64_t n) { x = compute_steps(x, n); }, timing);
  keep(x);
  return seconds;
}

}  // namespace augur::node
