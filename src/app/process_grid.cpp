#include "app/process_grid.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

namespace augur::app {

std::vector<int> balanced_dims(int p, int dims) {
  std::vector<int> divisors;
  for (int f = 1; static_cast<std::int64_t>(f) * f <= p; ++f)
    if (p % f == 0) divisors.insert(divisors.end(), {f, p / f});
  std::sort(divisors.rbegin(), divisors.rend());
  divisors.erase(std::unique(divisors.begin(), divisors.end()), divisors.end());
  std::vector<int> best, current;
  // Non-increasing factors of `rest` no larger than `cap`, `left` of them still to choose.
  std::function<void(int, int, int)> search = [&](int rest, int cap, int left) {
    if (left == 1) {
      if (rest > cap) return;
      current.push_back(rest);
      auto spread = [](const std::vector<int>& d) { return d.front() - d.back(); };
      if (best.empty() || spread(current) < spread(best) || (spread(current) == spread(best) && current < best)) best = current;
      current.pop_back();
      return;
    }
    for (int f : divisors) {
      if (f > cap || rest % f) continue;
      if (static_cast<double>(f) * std::pow(static_cast<double>(f), left - 1) < rest) break;  // the rest cannot fit below f
      current.push_back(f);
      search(rest / f, f, left - 1);
      current.pop_back();
    }
  };
  search(p, p, dims);
  return best;
}

double grid_side(double p, double dims, double dim) {
  const auto whole = [](double x, double low, double high) { return x == std::floor(x) && x >= low && x <= high; };
  if (!whole(p, 1, std::numeric_limits<int>::max()) || !whole(dims, 1, 8) || !whole(dim, 0, dims - 1))
    throw std::invalid_argument(fmt::format("dims({}, {}, {}): expected a process count p ≥ 1, a number of dimensions "
                                            "from 1 to 8 and a dimension from 0 to one less",
                                            p, dims, dim));
  return balanced_dims(static_cast<int>(p), static_cast<int>(dims))[static_cast<std::size_t>(dim)];
}

}  // namespace augur::app
