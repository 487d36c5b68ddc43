#include "fit/compute_states.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "fit/state_bounds.hpp"

namespace augur::fit {
namespace {

// How many ordered pairs (i, j), i ≠ j, of the ascending `probes` have probes[i] ≤ t·probes[j]:
// for each j, the probes at most t·probes[j], found by one pointer moving up as probes[j] does.
std::uint64_t ratios_at_most(const std::vector<double>& probes, double t) {
  std::uint64_t count = 0;
  std::size_t below = 0;
  for (std::size_t j = 0; j < probes.size(); ++j) {
    while (below < probes.size() && probes[below] <= t * probes[j]) ++below;
    count += below - (probes[j] <= t * probes[j] ? 1 : 0);  // a probe over itself is no pair
  }
  return count;
}

// The k-th smallest (1-based) of the ratios probes[i] / probes[j] over ordered pairs i ≠ j, by
// bisection on the ratio: a quick bench carries tens of thousands of probes, whose pairs number
// in the hundreds of millions, while each count above is one pass over the sorted probes.
double kth_ratio(const std::vector<double>& probes, std::uint64_t k) {
  double low = probes.front() / probes.back(), high = probes.back() / probes.front();
  for (int i = 0; i < 200 && low < high; ++i) {
    const double mid = low + (high - low) / 2;
    if (mid <= low || mid >= high) break;
    (ratios_at_most(probes, mid) >= k ? high : low) = mid;
  }
  return high;
}

// The q-quantile of the pairs' ratios: the smallest ratio with at least q of all pairs at or
// below it.
double ratio_quantile(const std::vector<double>& probes, double q) {
  const auto n = static_cast<std::uint64_t>(probes.size());
  const auto pairs = n * (n - 1);
  const auto k = std::clamp<std::uint64_t>(static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(pairs))), 1, pairs);
  return kth_ratio(probes, k);
}

}  // namespace

std::optional<model::StateFactors> compute_states(const std::vector<Measurement>& passes) {
  std::vector<double> probes;
  for (const auto& m : passes)
    if (m.compute_probe) probes.push_back(*m.compute_probe);
  if (probes.size() < static_cast<std::size_t>(kMinComputeProbes)) return std::nullopt;
  std::sort(probes.begin(), probes.end());
  // The ratios lie on either side of 1, as many below as above; the clamps only guard rounding.
  return model::StateFactors{std::min(ratio_quantile(probes, kBandQuantiles.first), 1.0),
                             std::max(ratio_quantile(probes, kBandQuantiles.second), 1.0)};
}

}  // namespace augur::fit
