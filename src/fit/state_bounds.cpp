#include "fit/state_bounds.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "fit/median.hpp"
#include "fit/samples.hpp"

namespace augur::fit {
namespace {

// One point's passes over the law there, by the state each was made in.
struct PointRatios {
  std::vector<double> fast, slow;
};

std::map<std::pair<int, double>, PointRatios> ratios_by_point(const MeasuredPasses& measured,
                                                              const model::Regime& regime,
                                                              model::Statistic statistic,
                                                              const model::Units& units) {
  std::map<std::pair<int, double>, PointRatios> points;
  for (const auto& m : measured.passes) {
    if (!regime.contains(m.bytes)) continue;
    const double law = regime.evaluate(m.p, m.bytes / units.bytes_per_size_unit(), model::Bound::avg) *
                       units.seconds_per_time_unit();
    const double ratio = statistic_of(m, statistic) / law;
    if (!(law > 0) || !std::isfinite(ratio)) continue;
    const bool slow = measured.state_limit > 0 && m.state_probe && *m.state_probe > measured.state_limit;
    auto& point = points[{m.p, m.bytes}];
    (slow ? point.slow : point.fast).push_back(ratio);
  }
  return points;
}

// The point's fast and slow time over the law: the fast state's low end and the slow state's
// high end when the probes saw both at the point; else both ends of all its passes.
std::pair<double, double> point_states(const PointRatios& r) {
  const auto [low, high] = kBandQuantiles;
  if (!r.fast.empty() && !r.slow.empty()) return {quantile(r.fast, low), quantile(r.slow, high)};
  const auto& all = r.fast.empty() ? r.slow : r.fast;
  return {quantile(all, low), quantile(all, high)};
}

}  // namespace

double quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double at = std::clamp(q, 0.0, 1.0) * static_cast<double>(values.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(at));
  const auto above = std::min(below + 1, values.size() - 1);
  return values[below] + (at - static_cast<double>(below)) * (values[above] - values[below]);
}

model::StateFactors state_factors(const MeasuredPasses& measured, const model::Regime& regime,
                                  model::Statistic statistic, const model::Units& units) {
  std::vector<double> fast, slow;
  for (const auto& [point, ratios] : ratios_by_point(measured, regime, statistic, units)) {
    const auto [f, s] = point_states(ratios);
    fast.push_back(f);
    slow.push_back(s);
  }
  if (fast.empty()) return {};
  // Capped at 1 on either side so that avg, the law, stays between min and max: a law fitted to
  // the fast state's passes lies at the fast state's low end, one fitted to all of them (--state
  // typical) between the states.
  return {std::min(median(fast), 1.0), std::max(median(slow), 1.0)};
}

}  // namespace augur::fit
