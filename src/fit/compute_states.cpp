#include "fit/compute_states.hpp"

#include <algorithm>

#include "fit/median.hpp"
#include "fit/state_bounds.hpp"

namespace augur::fit {

std::optional<model::StateFactors> compute_states(const std::vector<Measurement>& passes) {
  std::vector<double> probes;
  for (const auto& m : passes)
    if (m.compute_probe) probes.push_back(*m.compute_probe);
  if (probes.size() < static_cast<std::size_t>(kMinComputeProbes)) return std::nullopt;
  const double typical = median(probes);
  // The percentiles lie on either side of the median; the clamps only guard rounding.
  return model::StateFactors{std::min(quantile(probes, kBandQuantiles.first) / typical, 1.0),
                             std::max(quantile(probes, kBandQuantiles.second) / typical, 1.0)};
}

}  // namespace augur::fit
