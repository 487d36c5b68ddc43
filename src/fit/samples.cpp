#include "fit/samples.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace augur::fit {
std::vector<double> sorted_unique(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

namespace {

double standard_error(const Measurement& m) {
  return m.stddev / std::sqrt(static_cast<double>(std::max(m.reps, 1)));
}

// Median over the points of the squared relative standard error; 0 if no point has a time.
double pooled_relative_variance(const std::vector<Measurement>& points, model::Statistic statistic) {
  std::vector<double> relative;
  for (const auto& m : points) {
    const double value = statistic_of(m, statistic);
    if (value > 0) relative.push_back(std::pow(standard_error(m) / value, 2));
  }
  if (relative.empty()) return 0;
  auto middle = relative.begin() + static_cast<long>(relative.size() / 2);
  std::nth_element(relative.begin(), middle, relative.end());
  return *middle;
}

// The model's conversions fall back to seconds and bytes for an unknown name; a fit must not.
void check_units(const model::Units& units) {
  const auto& t = units.time;
  if (t != "s" && t != "ms" && t != "us" && t != "ns")
    throw std::invalid_argument("units.time: '" + t + "' is not s, ms, us or ns");
  if (units.size != "bytes" && units.size != "ints")
    throw std::invalid_argument("units.size: '" + units.size + "' is not bytes or ints");
  if (units.int_bytes < 1 || units.int_bytes > 64)
    throw std::invalid_argument("units.int_bytes: must be 1 to 64, not " + std::to_string(units.int_bytes));
}

}  // namespace

double statistic_of(const Measurement& m, model::Statistic statistic) {
  switch (statistic) {
    case model::Statistic::min: return m.min;
    case model::Statistic::median: return m.median;
    case model::Statistic::mean: return m.mean;
  }
  return m.median;
}

double error_estimate(const Measurement& m, double statistic_value, const ErrorModel& model) {
  const double value = std::abs(statistic_value);
  const double own = std::pow(standard_error(m), 2);
  const double freedom = std::max(m.reps - 1, 0);
  const double weight = model.pooled_repetitions;
  const double variance = freedom + weight > 0
                              ? (freedom * own + weight * model.pooled_relative_variance * value * value) / (freedom + weight)
                              : own;
  return std::max(std::sqrt(variance), model.relative_floor * value);
}

std::vector<Sample> make_samples(const std::vector<Measurement>& points, model::Statistic statistic,
                                 const model::Units& units, const ErrorModel& errors) {
  check_units(units);
  const double seconds = units.seconds_per_time_unit();
  const double bytes_per_unit = units.bytes_per_size_unit();
  ErrorModel model = errors;
  model.pooled_relative_variance = pooled_relative_variance(points, statistic);

  std::vector<Sample> samples;
  samples.reserve(points.size());
  double sum_of_times = 0;
  for (const auto& m : points) {
    Sample s;
    s.p = m.p;
    s.bytes = m.bytes;
    s.d = m.bytes / bytes_per_unit;
    const double value = statistic_of(m, statistic);
    s.y = value / seconds;
    s.sigma = error_estimate(m, value, model) / seconds;
    s.lowest = m.min / seconds;
    s.highest = m.max / seconds;
    sum_of_times += std::abs(s.y);
    samples.push_back(s);
  }
  const double mean_time = samples.empty() ? 0 : sum_of_times / samples.size();
  const double fallback_sigma = mean_time > 0 ? errors.relative_floor * mean_time : 1.0;
  for (auto& s : samples)
    if (!(s.sigma > 0)) s.sigma = fallback_sigma;
  return samples;
}

std::vector<double> distinct_sizes(const std::vector<Sample>& samples) {
  std::vector<double> values;
  values.reserve(samples.size());
  for (const auto& s : samples) values.push_back(s.bytes);
  return sorted_unique(std::move(values));
}

std::vector<double> distinct_group_sizes(const std::vector<Sample>& samples) {
  std::vector<double> values;
  values.reserve(samples.size());
  for (const auto& s : samples) values.push_back(s.p);
  return sorted_unique(std::move(values));
}

}  // namespace augur::fit
