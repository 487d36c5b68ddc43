#pragma once
// How a program's run time answers each machine parameter (`augur sensitivity`): the run time
// re-simulated with one parameter scaled over a range of factors; the slope at the machine as it
// is, and the share of the run the parameter carries; the tolerance, how far the parameter can
// worsen before the run grows by 1%, 2%, 5% (LLAMP's metric, found by re-simulation from the
// samples that bracket it, analyze/tolerance_search.hpp, no solver), with what carries the run there; and the run's
// growth under random delays of each rank's compute. The simulator is reached through a
// function, so this file knows nothing of inputs, models or networks.
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "analyze/tolerance_search.hpp"
#include "sim/network/scaling.hpp"

namespace augur::analyze {

// A distribution of delays added to every compute grain: const:D, uniform:A..B, exp:MEAN or
// normal:MEAN,SD (cut at 0). Throws std::invalid_argument naming the text and the reason.
struct Noise {
  enum class Kind { constant, uniform, exponential, normal } kind = Kind::constant;
  double a = 0, b = 0;
  std::string text;
  // The delay of the k-th grain of `rank` in the run of `seed`: a function of the four alone.
  double delay(std::uint64_t seed, int rank, std::uint64_t k) const;
};
Noise parse_noise(const std::string& text);

// One run to simulate: parameter `knob` times `factor`, and a seed's noise when given.
struct RunSpec {
  std::string knob;
  double factor = 1;
  const Noise* noise = nullptr;
  std::uint64_t seed = 0;
};

// What carried the run at some point: the critical path's length and its largest shares.
struct Carriers {
  double path = 0;
  std::vector<std::pair<std::string, double>> operations;  // "compute", an MPI call, "message"
  std::vector<std::pair<int, double>> ranks;
};

struct Simulator {
  std::function<double(const RunSpec&)> time;       // the predicted run time; called from several threads
  std::function<Carriers(const RunSpec&)> carriers;  // the analysed run at that point; may be empty
};

struct SensitivityOptions {
  std::vector<double> factors = {0.125, 0.25, 0.5, 0.75, 1, 1.1, 1.25, 1.5, 2, 3, 4, 6, 8, 10, 12, 16};
  std::vector<double> growths = {0.01, 0.02, 0.05};
  double step = 1.0 / 1024;   // the slope's relative step (a time's rounded to whole picoseconds)
  ToleranceSearch search;     // its precision (1e-6), the largest factor, the most runs a tolerance takes
  int threads = 2;
  const Noise* noise = nullptr;
  int seeds = 10;
};

struct Point {
  double factor = 1, value = 0, time = 0;
};

struct Slope {
  double step = 0;               // the factor step taken
  double right = 0, left = 0;    // dT/dfactor above and below the machine as it is, seconds
  double per_unit = 0;           // right / value: s per s of latency, s per s/B of G
  double share = 0;              // right / T: the part of the run the parameter carries
  bool linear = false;           // T(1+2h) − T(1+h) = T(1+h) − T(1): no break just above
};

struct Tolerance {
  double growth = 0;  // 0.01 for 1%
  double factor = std::numeric_limits<double>::infinity();  // infinity: not reached below max_factor
  double value = 0;   // the parameter at that factor
  double time = 0;    // the run there
  double below = 1;   // the largest factor known to stay below: the tolerance lies in [below, factor]
  int runs = 0;       // re-simulations the search took, at most ToleranceSearch::max_runs
  Carriers carriers;  // what carries the run there
};

struct ParameterSensitivity {
  sim::Knob knob;
  std::vector<Point> points;
  Slope slope;
  std::vector<Tolerance> tolerances;
};

struct NoiseRuns {
  std::string distribution;
  std::vector<double> times;  // one per seed, seed 1 first
  double mean = 0, sd = 0, min = 0, max = 0;
};

struct Sensitivity {
  double baseline = 0;
  std::vector<ParameterSensitivity> parameters;
  std::optional<NoiseRuns> noise;
  ToleranceSearch search;  // as the tolerances were sought
  std::uint64_t simulations = 0;
  double wall_seconds = 0;
};

// Parses "0.5,1,2" or "A..B:N" (N factors spaced evenly on a log scale); throws
// std::invalid_argument naming the text and the reason.
std::vector<double> parse_factors(const std::string& text);

Sensitivity sensitivity(const Simulator& simulator, const std::vector<sim::Knob>& knobs,
                        const SensitivityOptions& options);

}  // namespace augur::analyze
