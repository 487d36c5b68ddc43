#include "app/extrapolation.hpp"

#include <algorithm>
#include <stdexcept>

namespace augur::app {

double extrapolation_factor(double target_p, const std::vector<int>& measured_ranks) {
  if (measured_ranks.empty()) throw std::invalid_argument("no process count was measured");
  const int largest = *std::max_element(measured_ranks.begin(), measured_ranks.end());
  if (largest < 1) throw std::invalid_argument("the measured process counts are not positive");
  return target_p / largest;
}

}  // namespace augur::app
