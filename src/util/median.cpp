#include "util/median.hpp"

#include <algorithm>

namespace augur::util {

double median(std::vector<double> values) {
  const std::size_t n = values.size();
  if (n == 0) return 0;
  const auto upper = values.begin() + static_cast<long>(n / 2);
  std::nth_element(values.begin(), upper, values.end());
  if (n % 2 == 1) return *upper;
  // The lower middle value is the largest of those nth_element left before `upper`.
  return 0.5 * (*std::max_element(values.begin(), upper) + *upper);
}

double median_of_sorted(const std::vector<double>& sorted) {
  const std::size_t n = sorted.size();
  if (n == 0) return 0;
  return n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

}  // namespace augur::util
