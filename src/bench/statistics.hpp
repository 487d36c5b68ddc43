#pragma once
// Statistics of one measured point, and the stopping rule: keep repeating until the confidence
// interval of the median is narrow enough. The median and its interval need no assumption
// about the shape of the distribution, which for timings is skewed with a long right tail.
#include <vector>

namespace augur::bench {

struct Summary {
  double min = 0, median = 0, mean = 0, max = 0, stddev = 0;
  int count = 0;
};

Summary summarize(std::vector<double> samples);

// Half the width of the distribution-free 95% confidence interval of the median, relative to
// the median (order statistics n/2 ± 0.98·√n). Infinite when there are too few samples for the
// interval to lie inside the data, or when the median is 0.
double median_ci_relative_halfwidth(std::vector<double> samples);

struct RepetitionLimits {
  int min_reps = 8;
  int max_reps = 100;
  double seconds = 1.0;   // time the point may take, once min_reps are done
  double target = 0.05;   // relative CI half-width of the median that is precise enough
};

// Repetitions disturbed by the operating system are discarded (measure.cpp); at most this many
// times max_reps repetitions are run in all, so a machine that is never quiet still finishes.
inline constexpr int kAttemptsPerRep = 3;

// How many more repetitions to run, given the undisturbed samples so far, the repetitions run in
// all, and the seconds they took: 0 when the median is precise enough or a limit is reached.
// Batches grow with the sample so that the cost of deciding stays small, and never overrun the
// time left.
int further_repetitions(const std::vector<double>& samples, int attempts, double elapsed,
                        const RepetitionLimits& limits);

}  // namespace augur::bench
