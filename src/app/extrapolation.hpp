#pragma once
// How far a prediction at a process count lies beyond the counts a program was learned at.
#include <vector>

namespace augur::app {

// target_p over the largest measured count: `augur sim --app` warns past a factor it names.
// Throws std::invalid_argument when no count was measured or the largest is not positive.
double extrapolation_factor(double target_p, const std::vector<int>& measured_ranks);

}  // namespace augur::app
