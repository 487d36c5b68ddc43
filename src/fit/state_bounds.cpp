#include "fit/state_bounds.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

#include "fit/samples.hpp"
#include "util/median.hpp"

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

// A pass far beyond the other passes of its state in the regime (another process scheduled on
// the core, a page fault storm) is not where a state lies, and one such pass per point was
// enough to set max: Tukey's far-out fence, Q3 + 3·IQR of the state's ratios over the regime's
// points, keeps them out. Pooled over the regime because a point has a handful of passes; left
// open below 8 ratios, where quartiles say little; it holds while under a quarter of a state's
// passes are outliers. Only the high side: nothing runs faster than the machine can.
constexpr std::size_t kFenceMinimumRatios = 8;

double far_out_fence(const std::vector<double>& ratios) {
  if (ratios.size() < kFenceMinimumRatios) return std::numeric_limits<double>::infinity();
  const double q1 = quantile(ratios, 0.25), q3 = quantile(ratios, 0.75);
  return q3 + 3 * (q3 - q1);
}

void drop_above(std::vector<double>& ratios, double fence) {
  std::erase_if(ratios, [fence](double r) { return r > fence; });
}

// Each state's far-out passes removed from every point (points left without passes are dropped).
void drop_far_outliers(std::map<std::pair<int, double>, PointRatios>& points) {
  std::vector<double> fast, slow;
  for (const auto& [at, r] : points) {
    fast.insert(fast.end(), r.fast.begin(), r.fast.end());
    slow.insert(slow.end(), r.slow.begin(), r.slow.end());
  }
  const double fast_fence = far_out_fence(fast), slow_fence = far_out_fence(slow);
  for (auto& [at, r] : points) {
    drop_above(r.fast, fast_fence);
    drop_above(r.slow, slow_fence);
  }
  std::erase_if(points, [](const auto& entry) { return entry.second.fast.empty() && entry.second.slow.empty(); });
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
  auto points = ratios_by_point(measured, regime, statistic, units);
  drop_far_outliers(points);
  std::vector<double> fast, slow;
  for (const auto& [point, ratios] : points) {
    const auto [f, s] = point_states(ratios);
    fast.push_back(f);
    slow.push_back(s);
  }
  if (fast.empty()) return {};
  // Capped at 1 on either side so that avg, the law, stays between min and max: a law fitted to
  // the fast state's passes lies at the fast state's low end, one fitted to all of them (--state
  // typical) between the states.
  return {std::min(util::median(fast), 1.0), std::max(util::median(slow), 1.0)};
}

}  // namespace augur::fit
