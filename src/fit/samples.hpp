#pragma once
// Measurements as the fitter sees them: in the model's units (time unit and size unit of the
// equations being written), with the statistic being fitted and its error estimate.
#include <vector>

#include "fit/raw.hpp"
#include "model/model.hpp"

namespace augur::fit {

struct Sample {
  double p = 0;      // processes
  double bytes = 0;  // message size in bytes (regime boundaries are in bytes)
  double d = 0;      // message size in the model's size unit
  double y = 0;      // the fitted statistic, in the model's time unit
  double sigma = 0;  // error estimate of y (> 0), in the model's time unit
  double lowest = 0, highest = 0;  // measured min and max, in the model's time unit
};

// How a point's error estimate is made from its repetitions (docs/fitting.md, "Weights").
struct ErrorModel {
  // Error estimates below this fraction of the value are raised to it, so a point whose
  // repetitions agreed exactly does not get an infinite weight.
  double relative_floor = 0.01;
  // The squared relative standard error of each point is averaged with the operation's median
  // one as if that median came from this many extra repetitions: a variance estimated from
  // three repetitions is mostly noise, one from a hundred is kept almost as it is.
  double pooled_repetitions = 5;
  double pooled_relative_variance = 0;  // the operation's median; set by make_samples
};

// The standard error std/√reps of the statistic, moderated toward the pooled relative error
// and floored as `model` says.
double error_estimate(const Measurement& m, double statistic_value, const ErrorModel& model);

double statistic_of(const Measurement& m, model::Statistic statistic);

// Converts seconds to `units.time` and bytes to `units.size` (std::invalid_argument for a unit
// the model format does not know), pooling the relative errors over
// `points` (one operation). A point whose error estimate is still zero (a zero time with no
// spread) gets the floor of the set's mean time instead.
std::vector<Sample> make_samples(const std::vector<Measurement>& points, model::Statistic statistic,
                                 const model::Units& units, const ErrorModel& errors);

// Distinct values, ascending.
std::vector<double> sorted_unique(std::vector<double> values);
std::vector<double> distinct_sizes(const std::vector<Sample>& samples);
std::vector<double> distinct_group_sizes(const std::vector<Sample>& samples);

}  // namespace augur::fit
