#include "bench/statistics.hpp"

#include "util/median.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace augur::bench {

Summary summarize(std::vector<double> samples) {
  Summary s;
  s.count = static_cast<int>(samples.size());
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  s.min = samples.front();
  s.max = samples.back();
  s.median = util::median_of_sorted(samples);
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / samples.size();
  // Rounding can push the mean a hair outside [min, max] when all samples are equal.
  s.mean = std::clamp(s.mean, s.min, s.max);
  double squares = 0;
  for (double x : samples) squares += (x - s.mean) * (x - s.mean);
  s.stddev = samples.size() > 1 ? std::sqrt(squares / (samples.size() - 1)) : 0.0;
  return s;
}

double median_ci_relative_halfwidth(std::vector<double> samples) {
  constexpr double kInfinite = std::numeric_limits<double>::infinity();
  const double n = static_cast<double>(samples.size());
  const double spread = 0.98 * std::sqrt(n);  // 1.96/2 standard deviations of Binomial(n, 1/2)
  const double lower = std::floor(n / 2 - spread);
  const double upper = std::ceil(n / 2 + spread);
  if (lower < 0 || upper > n - 1) return kInfinite;
  std::sort(samples.begin(), samples.end());
  const double median = util::median_of_sorted(samples);
  if (median <= 0) return kInfinite;
  const auto at = [&](double i) { return samples[static_cast<std::size_t>(i)]; };
  return (at(upper) - at(lower)) / (2 * median);
}

int further_repetitions(const std::vector<double>& samples, int attempts, double elapsed,
                        const RepetitionLimits& limits) {
  const int n = static_cast<int>(samples.size());
  const int attempts_left = kAttemptsPerRep * limits.max_reps - attempts;
  if (n >= limits.max_reps || attempts_left <= 0) return 0;
  const bool time_up = elapsed >= limits.seconds;
  if (n < limits.min_reps)
    return time_up && attempts >= limits.min_reps ? 0 : std::min(limits.min_reps - n, attempts_left);
  if (time_up || median_ci_relative_halfwidth(samples) <= limits.target) return 0;
  const double per_rep = elapsed / std::max(attempts, 1);
  const double room = per_rep > 0 ? (limits.seconds - elapsed) / per_rep : limits.max_reps;
  if (room < 1) return 0;
  const int batch = std::max(n / 2, 4);
  return static_cast<int>(std::min<double>({double(batch), double(limits.max_reps - n), std::floor(room)}));
}

}  // namespace augur::bench
