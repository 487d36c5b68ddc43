#include <vector>

#include "node/kernels.hpp"

namespace augur::node {
namespace {

// The arrays are distinct, so the compiler may vectorise without checking for overlap.
void triad(double* __restrict a, const double* __restrict b, const double* __restrict c, std::size_t n) {
  constexpr double s = 3.0;
  for (std::size_t i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
}

}  // namespace

double memory_bandwidth(std::size_t array_bytes, const Timing& timing) {
  const std::size_t n = array_bytes / sizeof(double);
  // Every page is written before timing starts, so the first pass pays no page faults.
  std::vector<double> a(n, 0.0), b(n, 1.0), c(n, 2.0);
  const double seconds_per_pass = best_seconds_per_unit(
      [&](std::uint64_t passes) {
        for (std::uint64_t p = 0; p < passes; ++p) triad(a.data(), b.data(), c.data(), n);
      },
      timing);
  keep(a[n / 2]);
  return 3.0 * sizeof(double) * double(n) / seconds_per_pass;
}

}  // namespace augur::node
