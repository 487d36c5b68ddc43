#include <array>
#include <utility>

#include "node/kernels.hpp"

namespace augur::node {
namespace {

// Independent chains, so that the floating-point units' throughput and not one chain's latency
// sets the pace: a multiply-add unit with a latency of a few cycles and two of them per cycle
// needs a dozen or more in flight.
constexpr std::size_t kChains = 24;
using Chains = std::array<double, kChains>;

// x ← x·m + a approaches a/(1 − m) = 1 and never overflows or becomes subnormal; without
// -ffast-math the compiler may not merge repeated steps into fewer. The chains are written out
// (a fold over constant indices) so that they live in registers: a loop over the array would
// keep them in memory and time the store-to-load path instead.
template <std::size_t... K>
void multiply_add(Chains& x, std::uint64_t n, std::index_sequence<K...>) {
  constexpr double m = 0.999999, a = 1e-6;
  Chains v = x;
  for (std::uint64_t i = 0; i < n; ++i) ((v[K] = v[K] * m + a), ...);
  x = v;
}

}  // namespace

double flop_rate(const Timing& timing) {
  Chains x;
  for (std::size_t k = 0; k < kChains; ++k) x[k] = 0.5 + 0.01 * double(k);
  const double seconds = best_seconds_per_unit(
      [&](std::uint64_t n) { multiply_add(x, n, std::make_index_sequence<kChains>()); }, timing);
  double sum = 0;
  for (double v : x) sum += v;
  keep(sum);
  return 2.0 * kChains / seconds;
}

}  // namespace augur::node
