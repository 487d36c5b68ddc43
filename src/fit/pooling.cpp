#include "fit/pooling.hpp"

#include "fit/machine_state.hpp"
#include "fit/median.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <tuple>

namespace augur::fit {
namespace {

template <typename Field>
std::vector<double> collect(const std::vector<const Measurement*>& group, Field field) {
  std::vector<double> values;
  for (const auto* m : group)
    if (auto v = field(*m)) values.push_back(*v);
  return values;
}

// std/√reps of the pooled point: the larger of what the passes say of themselves and what their
// disagreement says, each for the average of k passes. What a pass says of itself is the median
// over the passes: one preempted repetition makes a pass's standard deviation hundreds of times
// its median's error (an 8-byte exchange: 117 µs in one pass, 0.05–0.3 µs in six).
double pooled_standard_error(const std::vector<const Measurement*>& group) {
  const double k = static_cast<double>(group.size());
  std::vector<double> own_variances;
  double mean = 0;
  for (const auto* m : group) {
    own_variances.push_back(m->stddev * m->stddev / std::max(m->reps, 1));
    mean += m->median;
  }
  const double own = median(std::move(own_variances));
  mean /= k;
  double between = 0;
  for (const auto* m : group) between += (m->median - mean) * (m->median - mean);
  between /= (k - 1);
  return std::sqrt(std::max(own, between) / k);
}

Measurement pool(const std::vector<const Measurement*>& group) {
  if (group.size() == 1) return *group.front();
  Measurement m = *group.front();
  m.pass = 1;
  m.median = median(collect(group, [](const Measurement& x) { return std::optional(x.median); }));
  long reps = 0;
  double weighted_mean = 0;
  for (const auto* x : group) {
    m.min = std::min(m.min, x->min);
    m.max = std::max(m.max, x->max);
    reps += x->reps;
    weighted_mean += x->mean * x->reps;
  }
  m.reps = static_cast<int>(std::min<long>(reps, 1 << 30));
  m.mean = std::clamp(weighted_mean / static_cast<double>(reps), m.min, m.max);
  m.stddev = pooled_standard_error(group) * std::sqrt(static_cast<double>(m.reps));
  const auto skews = collect(group, [](const Measurement& x) { return x.skew; });
  if (!skews.empty()) m.skew = median(skews);
  const auto errors = collect(group, [](const Measurement& x) { return x.clock_error; });
  if (!errors.empty()) m.clock_error = median(errors);
  const auto roots = collect(group, [](const Measurement& x) { return x.roles ? std::optional(x.roles->root) : std::nullopt; });
  const auto others = collect(group, [](const Measurement& x) { return x.roles ? std::optional(x.roles->others) : std::nullopt; });
  if (!roots.empty()) m.roles = RoleTimes{median(roots), median(others)};
  const auto probes = collect(group, [](const Measurement& x) { return x.state_probe; });
  if (!probes.empty()) m.state_probe = median(probes);
  return m;
}

}  // namespace

std::vector<Measurement> pool_repeated_points(const std::vector<Measurement>& points, StateChoice choice) {
  // Typical pooling never asks which state a measurement was in, so it skips finding them.
  return pool_repeated_points(points, choice, choice == StateChoice::reference ? machine_states(points) : MachineStates{});
}

std::vector<Measurement> pool_repeated_points(const std::vector<Measurement>& points, StateChoice choice,
                                              const MachineStates& states) {
  using Key = std::tuple<std::string, int, double>;
  std::map<Key, std::size_t> slot;
  std::vector<std::vector<const Measurement*>> groups;
  for (const auto& m : points) {
    auto [it, fresh] = slot.try_emplace(Key{m.op, m.p, m.bytes}, groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(&m);
  }
  // A default MachineStates has no limit and so keeps every measurement.
  const auto& selection = choice == StateChoice::reference ? states : MachineStates{};
  std::vector<Measurement> pooled;
  pooled.reserve(groups.size());
  for (const auto& group : groups) pooled.push_back(pool(selection.nearest_reference(group)));
  return pooled;
}

}  // namespace augur::fit
