#pragma once
// Synthetic measurements for the fitter's tests and benchmark: a known law plus noise, with the
// repetitions simulated so that the recorded std, min and max behave like a real run's.
#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "fit/raw.hpp"

namespace augur::fit::synthetic {

// Time in microseconds for p processes and d ints.
using Law = std::function<double(double p, double d)>;

inline std::vector<double> powers_of_two(double from, double to) {
  std::vector<double> v;
  for (double x = from; x <= to; x *= 2) v.push_back(x);
  return v;
}

struct Grid {
  std::vector<double> group_sizes = powers_of_two(2, 128);
  std::vector<double> ints = powers_of_two(1, 8192);
  int int_bytes = 8;  // the T3D's
};

// Each point is the statistics of `reps` repetitions whose scatter is chosen so that their mean
// has a relative standard deviation of `noise`; std/√reps then estimates exactly that.
inline Measurement simulate_point(const std::string& op, double p, double bytes, double truth, double noise,
                                  int reps, std::mt19937_64& rng) {
  std::normal_distribution<double> normal(0.0, noise * std::sqrt(static_cast<double>(reps)));
  std::vector<double> times(reps);
  for (auto& t : times) t = std::max(truth * (1 + normal(rng)), 1e-3 * truth);
  std::sort(times.begin(), times.end());
  const double mean = std::accumulate(times.begin(), times.end(), 0.0) / reps;
  double squares = 0;
  for (double t : times) squares += (t - mean) * (t - mean);
  Measurement m;
  m.op = op;
  m.p = static_cast<int>(p);
  m.bytes = bytes;
  m.reps = reps;
  const double us = 1e-6;
  m.min = times.front() * us;
  m.max = times.back() * us;
  m.mean = mean * us;
  m.median = (reps % 2 ? times[reps / 2] : (times[reps / 2 - 1] + times[reps / 2]) / 2) * us;
  m.stddev = std::sqrt(squares / std::max(reps - 1, 1)) * us;
  return m;
}

inline std::vector<Measurement> synthesize(const std::string& op, const Law& law, const Grid& grid, double noise,
                                           std::mt19937_64& rng, int reps = 16) {
  std::vector<Measurement> points;
  for (double p : grid.group_sizes)
    for (double d : grid.ints)
      points.push_back(simulate_point(op, p, d * grid.int_bytes, law(p, d), noise, reps, rng));
  return points;
}

}  // namespace augur::fit::synthetic
