#include "fit/breakpoints.hpp"

#include "fit/least_squares.hpp"
#include "util/median.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace augur::fit {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Median |residual| / error estimate above which the residuals are more than noise: noise of the
// estimated size leaves about 0.67.
constexpr double kBeyondNoise = 1.5;
// When no number of segments meets the residual goal, more segments must at least halve the
// residual to be taken.
constexpr double kHalving = 0.5;
// |residual| / error estimate beyond which one point's miss is not noise (noise of the estimated
// size exceeds it once in 370 points).
constexpr double kPointBeyondNoise = 3;

// Weighted sums for a straight line y = a + b·d through one group size's points.
struct LineSums {
  double w = 0, wd = 0, wdd = 0, wy = 0, wdy = 0, wyy = 0;
  int sizes = 0;  // distinct sizes with a measurement

  void add(const LineSums& o) {
    w += o.w, wd += o.wd, wdd += o.wdd, wy += o.wy, wdy += o.wdy, wyy += o.wyy;
    sizes += o.sizes;
  }

  // χ² of the best line, in centred form so that large d does not cancel away the residual.
  double chi2() const {
    if (w <= 0) return 0;
    const double spread_d = wdd - wd * wd / w;
    const double spread_y = wyy - wy * wy / w;
    const double covariance = wdy - wd * wy / w;
    const double explained = spread_d > 1e-12 * wdd ? covariance * covariance / spread_d : 0;
    return std::max(0.0, spread_y - explained);
  }
  int parameters() const { return std::min(sizes, 2); }

  // The best line's value at d.
  double at(double d) const {
    if (w <= 0) return 0;
    const double spread_d = wdd - wd * wd / w;
    const double slope = spread_d > 1e-12 * wdd ? (wdy - wd * wy / w) / spread_d : 0;
    return (wy - slope * wd) / w + slope * d;
  }
};

struct SegmentCost {
  double chi2 = kInfinity;
  int parameters = 0;
};

// sums[s][g]: the points of size index s and group index g.
std::vector<std::vector<LineSums>> line_sums(const std::vector<Sample>& samples,
                                             const std::vector<double>& sizes,
                                             const std::vector<double>& groups) {
  std::vector<std::vector<LineSums>> sums(sizes.size(), std::vector<LineSums>(groups.size()));
  for (const auto& s : samples) {
    const auto si = std::lower_bound(sizes.begin(), sizes.end(), s.bytes) - sizes.begin();
    const auto gi = std::lower_bound(groups.begin(), groups.end(), s.p) - groups.begin();
    auto& c = sums[si][gi];
    const double w = 1 / (s.sigma * s.sigma);
    c.w += w, c.wd += w * s.d, c.wdd += w * s.d * s.d;
    c.wy += w * s.y, c.wdy += w * s.d * s.y, c.wyy += w * s.y * s.y;
    c.sizes = 1;
  }
  return sums;
}

// cost[i][j]: segment of size indices [i, j), for every segment long enough to keep.
std::vector<std::vector<SegmentCost>> segment_costs(const std::vector<std::vector<LineSums>>& sums,
                                                    int min_length) {
  const int n_sizes = static_cast<int>(sums.size());
  const std::size_t n_groups = sums.empty() ? 0 : sums[0].size();
  std::vector<std::vector<SegmentCost>> cost(n_sizes + 1, std::vector<SegmentCost>(n_sizes + 1));
  for (int i = 0; i < n_sizes; ++i) {
    std::vector<LineSums> running(n_groups);
    for (int j = i + 1; j <= n_sizes; ++j) {
      for (std::size_t g = 0; g < n_groups; ++g) running[g].add(sums[j - 1][g]);
      if (j - i < min_length) continue;
      SegmentCost c{0, 0};
      for (const auto& line : running) c.chi2 += line.chi2(), c.parameters += line.parameters();
      cost[i][j] = c;
    }
  }
  return cost;
}

struct Partition {
  double chi2 = kInfinity;
  int parameters = 0;
  std::vector<int> starts;  // size index where each segment after the first begins
};

// Least-χ² partitions of [0, n_sizes) into 1…max_segments segments.
std::vector<Partition> best_partitions(const std::vector<std::vector<SegmentCost>>& cost, int max_segments) {
  const int n = static_cast<int>(cost.size()) - 1;
  // best[m][j]: least χ² covering [0, j) with m + 1 segments; from[m][j]: where the last begins.
  std::vector<std::vector<double>> best(max_segments, std::vector<double>(n + 1, kInfinity));
  std::vector<std::vector<int>> from(max_segments, std::vector<int>(n + 1, -1));
  for (int j = 1; j <= n; ++j) best[0][j] = cost[0][j].chi2, from[0][j] = 0;
  for (int m = 1; m < max_segments; ++m)
    for (int j = 1; j <= n; ++j)
      for (int i = 1; i < j; ++i) {
        const double total = best[m - 1][i] + cost[i][j].chi2;
        if (total < best[m][j]) best[m][j] = total, from[m][j] = i;
      }

  std::vector<Partition> partitions;
  for (int m = 0; m < max_segments; ++m) {
    if (!std::isfinite(best[m][n])) continue;
    Partition p;
    p.chi2 = best[m][n];
    for (int k = m, j = n; k >= 0; --k) {
      const int i = from[k][j];
      p.parameters += cost[i][j].parameters;
      if (k > 0) p.starts.insert(p.starts.begin(), i);
      j = i;
    }
    partitions.push_back(std::move(p));
  }
  return partitions;
}

// Bayesian information criterion on the weighted residual sum. The residual variance per point
// is χ²/(N − k), not χ²/N: with the dozen sizes of a point-to-point curve the biased estimate
// rewards every extra segment's parameters.
double information_criterion(const Partition& p, double points, const BreakpointOptions& options) {
  const double charged = p.parameters + options.parameters_per_breakpoint * static_cast<double>(p.starts.size());
  // A noise-free law leaves χ² ≈ 0; the floor keeps ln finite and treats residuals below a
  // millionth of the error estimate as equal.
  const double chi2 = std::max(p.chi2, 1e-12 * points);
  return points * std::log(chi2 / std::max(1.0, points - charged)) + charged * std::log(points);
}

// How far the points are from the lines of `p`'s segments: the medians of |residual| relative to
// each point's value and to its error estimate, and the largest relative |residual| among the
// points whose miss is beyond noise.
struct Misfit {
  double relative = 0, standardised = 0, worst = 0;
};

Misfit misfit_of(const Partition& p, const std::vector<std::vector<LineSums>>& sums,
                                const std::vector<Sample>& samples, const std::vector<double>& sizes,
                                const std::vector<double>& groups) {
  std::vector<int> ends(p.starts);
  ends.push_back(static_cast<int>(sizes.size()));
  std::vector<std::vector<LineSums>> lines;  // lines[segment][group]
  for (std::size_t seg = 0, begin = 0; seg < ends.size(); begin = ends[seg++]) {
    lines.emplace_back(groups.size());
    for (auto s = begin; s < static_cast<std::size_t>(ends[seg]); ++s)
      for (std::size_t g = 0; g < groups.size(); ++g) lines.back()[g].add(sums[s][g]);
  }
  std::vector<double> relative, standardised;
  double worst = 0;
  for (const auto& s : samples) {
    if (s.y <= 0) continue;
    const auto si = std::lower_bound(sizes.begin(), sizes.end(), s.bytes) - sizes.begin();
    const auto gi = std::lower_bound(groups.begin(), groups.end(), s.p) - groups.begin();
    const auto seg = std::upper_bound(p.starts.begin(), p.starts.end(), static_cast<int>(si)) - p.starts.begin();
    const double off = std::abs(lines[seg][gi].at(s.d) - s.y);
    relative.push_back(off / s.y);
    standardised.push_back(off / s.sigma);
    if (off > kPointBeyondNoise * s.sigma) worst = std::max(worst, off / s.y);
  }
  return {util::median(std::move(relative)), util::median(std::move(standardised)), worst};
}

// For a choice that misses the residual goal: the fewest segments that meet it (partitions run
// from one segment up); else the partition closest to it, if that at least halves the residual
// (one point far off, which no segment of three sizes can isolate, can keep every number of
// segments above the goal: a 1-byte gather at 0.69 µs between 0.01 µs at 0 B and 0.1 µs at 2 B).
std::size_t closest_to_goal(const std::vector<Misfit>& misfits, std::size_t chosen, double goal) {
  std::size_t closest = chosen;
  for (std::size_t i = 0; i < misfits.size(); ++i) {
    if (misfits[i].relative <= goal) return i;
    if (misfits[i].relative < misfits[closest].relative) closest = i;
  }
  return misfits[closest].relative <= kHalving * misfits[chosen].relative ? closest : chosen;
}

// For a choice that leaves one size far off: the fewest more segments that bring every size within
// the worst-point goal without a worse median; else the choice stands (a lone wild point that no
// segment of three sizes isolates must not buy segments elsewhere).
std::size_t within_worst_point_goal(const std::vector<Misfit>& misfits, std::size_t chosen, double goal) {
  for (std::size_t i = chosen + 1; i < misfits.size(); ++i)
    if (misfits[i].worst <= goal && misfits[i].relative <= misfits[chosen].relative) return i;
  return chosen;
}

}  // namespace

std::vector<double> detect_breakpoints(const std::vector<Sample>& samples, const BreakpointOptions& options) {
  const auto sizes = distinct_sizes(samples);
  const int min_length = std::max(options.min_sizes_per_segment, 2);
  const int max_segments = std::min(std::max(options.max_segments, 1), static_cast<int>(sizes.size()) / min_length);
  if (max_segments < 2) return {};

  const auto groups = distinct_group_sizes(samples);
  const auto sums = line_sums(samples, sizes, groups);
  const auto partitions = best_partitions(segment_costs(sums, min_length), max_segments);
  const int points = static_cast<int>(samples.size());
  const auto& whole = partitions.front();  // one segment is always a partition
  // Beyond the goal, and beyond what noise of the estimated size leaves (median |z| ≈ 0.67).
  const auto misses_goal = [&](const Misfit& m) {
    return options.residual_goal > 0 && m.relative > options.residual_goal && m.standardised > kBeyondNoise;
  };
  std::vector<Misfit> misfits{misfit_of(whole, sums, samples, sizes, groups)};
  // Wide error estimates (a noisy machine) can let one line "fit" points it misses by half; the
  // goal keeps the search open then.
  if (goodness_of_fit(whole.chi2, points, whole.parameters) >= options.fits_within_errors && !misses_goal(misfits[0]))
    return {};
  for (std::size_t i = 1; i < partitions.size(); ++i) misfits.push_back(misfit_of(partitions[i], sums, samples, sizes, groups));

  std::size_t chosen = 0;
  for (std::size_t i = 1; i < partitions.size(); ++i)
    if (information_criterion(partitions[i], points, options) < information_criterion(partitions[chosen], points, options))
      chosen = i;
  if (misses_goal(misfits[chosen])) chosen = closest_to_goal(misfits, chosen, options.residual_goal);
  if (options.worst_point_goal > 0 && misfits[chosen].worst > options.worst_point_goal)
    chosen = within_worst_point_goal(misfits, chosen, options.worst_point_goal);
  std::vector<double> boundaries;
  for (int start : partitions[chosen].starts) boundaries.push_back(sizes[start]);
  return boundaries;
}

}  // namespace augur::fit
