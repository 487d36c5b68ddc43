#include "bench/plan.hpp"

#include <algorithm>
#include <cmath>

namespace augur::bench {

std::vector<int> group_sizes(int world) {
  std::set<int> sizes;
  for (int p = 2; p <= world; p *= 2) sizes.insert(p);
  for (int p = 3; p <= world; p *= 2) sizes.insert(p);
  if (world >= 2) sizes.insert(world);
  return {sizes.begin(), sizes.end()};
}

std::vector<std::uint64_t> size_ladder(Sizes sizes, std::uint64_t max_bytes) {
  if (sizes == Sizes::none) return {0};
  const std::uint64_t step = sizes == Sizes::ints ? kIntBytes : 1;
  std::vector<std::uint64_t> ladder{0};
  for (std::uint64_t b = step; b <= max_bytes; b *= 2) ladder.push_back(b);
  const std::uint64_t top = max_bytes / step * step;
  if (top > ladder.back()) ladder.push_back(top);
  return ladder;
}

std::vector<int> selected_operations(const SweepSettings& settings) {
  std::vector<int> chosen;
  for (int i = 0; i < static_cast<int>(kOperations.size()); ++i) {
    const auto name = kOperations[i].name;
    const bool wanted = settings.operations.empty() ||
                        std::find(settings.operations.begin(), settings.operations.end(), name) !=
                            settings.operations.end();
    if (wanted) chosen.push_back(i);
  }
  return chosen;
}

std::vector<Placement> placements(int p, const Nodes& machine) {
  if (!machine.several()) return {Placement{}};
  auto counts = [](int most) {
    auto sizes = group_sizes(most);
    sizes.insert(sizes.begin(), 1);
    return sizes;
  };
  std::vector<Placement> out;
  const auto ranks = counts(machine.ranks_per_node);
  for (int n : counts(machine.nodes))
    if (p % n == 0 && std::binary_search(ranks.begin(), ranks.end(), p / n)) out.push_back({n, p / n});
  return out;
}

std::vector<Point> base_plan(const std::vector<int>& operations, const std::vector<int>& groups,
                             std::uint64_t max_bytes, const Nodes& machine) {
  std::vector<Point> plan;
  for (int op : operations) {
    const auto& shape = kOperations[op];
    for (int p : groups) {
      if (shape.groups == Groups::pair && p != 2) continue;
      for (const auto& where : placements(p, machine))
        for (auto bytes : size_ladder(shape.sizes, max_bytes)) plan.push_back({op, p, bytes, where});
    }
  }
  return plan;
}

Placement placement_of(const fit::Measurement& m) {
  return m.placed() ? Placement{m.nodes, m.ranks_per_node} : Placement{};
}

std::vector<Point> repeat_plan(const std::vector<fit::Measurement>& earlier, const std::vector<int>& operations) {
  const std::set<int> selected(operations.begin(), operations.end());
  std::vector<CurveKey> order;
  std::map<CurveKey, std::set<std::uint64_t>> sizes;
  for (const auto& m : earlier) {
    const int op = operation_index(m.op);
    if (!selected.contains(op)) continue;
    auto [curve, fresh] = sizes.try_emplace({op, m.p, placement_of(m)});
    if (fresh) order.push_back(curve->first);
    curve->second.insert(static_cast<std::uint64_t>(m.bytes));
  }
  std::vector<Point> plan;
  for (const auto& key : order)
    for (auto bytes : sizes[key]) plan.push_back({key.operation, key.p, bytes, key.placement});
  return plan;
}

int refinement_pass(int passes) { return (std::max(passes, 1) + 1) / 2; }

void FastestTimes::keep(const CurveKey& key, std::uint64_t bytes, double seconds) {
  auto [at, fresh] = times_[key].try_emplace(bytes, seconds);
  if (!fresh) at->second = std::min(at->second, seconds);
}

Curve FastestTimes::curve(const CurveKey& key) const {
  const auto sizes = times_.find(key);
  return sizes == times_.end() ? Curve{} : Curve(sizes->second.begin(), sizes->second.end());
}

FastestTimes fastest_times(const std::vector<fit::Measurement>& earlier, int last_pass) {
  FastestTimes fastest;
  for (const auto& m : earlier) {
    const int op = operation_index(m.op);
    if (op >= 0 && m.pass <= last_pass)
      fastest.keep({op, m.p, placement_of(m)}, static_cast<std::uint64_t>(m.bytes), m.median);
  }
  return fastest;
}

namespace {

// Relative distance of point i from the straight line through its neighbours.
double bend_at(const Curve& curve, std::size_t i) {
  const auto [x0, y0] = curve[i - 1];
  const auto [x1, y1] = curve[i];
  const auto [x2, y2] = curve[i + 1];
  const double line = y0 + (y2 - y0) * double(x1 - x0) / double(x2 - x0);
  return y1 > 0 ? std::abs(y1 - line) / y1 : 0.0;
}

std::uint64_t midpoint(std::uint64_t a, std::uint64_t b, std::uint64_t step) {
  return (a + (b - a) / 2) / step * step;
}

}  // namespace

std::vector<std::uint64_t> refinement_sizes(const Curve& unsorted, Sizes sizes, double tolerance, int limit) {
  if (sizes == Sizes::none || unsorted.size() < 3 || limit <= 0) return {};
  auto curve = unsorted;
  std::sort(curve.begin(), curve.end());
  const std::uint64_t step = sizes == Sizes::ints ? kIntBytes : 1;
  std::set<std::uint64_t> measured;
  for (const auto& [bytes, t] : curve) measured.insert(bytes);

  std::vector<std::pair<double, std::size_t>> bends;
  for (std::size_t i = 1; i + 1 < curve.size(); ++i) {
    double bend = bend_at(curve, i);
    if (bend > tolerance) bends.push_back({bend, i});
  }
  std::sort(bends.rbegin(), bends.rend());

  std::vector<std::uint64_t> proposed;
  auto propose = [&](std::uint64_t a, std::uint64_t b) {
    const auto m = midpoint(a, b, step);
    if (m > a && m < b && !measured.contains(m) && static_cast<int>(proposed.size()) < limit) {
      measured.insert(m);
      proposed.push_back(m);
    }
  };
  for (const auto& [bend, i] : bends) {
    propose(curve[i - 1].first, curve[i].first);
    propose(curve[i].first, curve[i + 1].first);
  }
  return proposed;
}

}  // namespace augur::bench
