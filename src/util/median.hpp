#pragma once
// The statistic augur measures, pools and compares timings by: their distribution has a long
// right tail (the operating system, other guests), which moves the mean but hardly the median.
#include <vector>

namespace augur::util {

// The median of `values`: the middle one, or the mean of the two middle ones for an even count;
// 0 when there are none.
double median(std::vector<double> values);

// The same for values already sorted ascending, without a copy.
double median_of_sorted(const std::vector<double>& sorted);

}  // namespace augur::util
