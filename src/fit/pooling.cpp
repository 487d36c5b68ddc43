#include "fit/pooling.hpp"

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

// A point's passes in the machine's best recurring state. The state probe sees only how far apart
// the host placed ranks 0 and 1; within its fast state an 8-byte allreduce still took 0.20 µs in
// some passes and 0.29 µs in others, with the probe alike. The fastest passes of the point itself
// are those least disturbed by whatever moved. Three of fifteen: refitting five pairs of quick
// runs, two runs' models then differed by a median of 1.3–3.1% at their points, against 1.6–7.7%
// for the passes nearest the reference probe and 5.5–10.6% for all of them. Never more than half,
// so that even three passes set the slowest aside.
//
// Of those, only the ones within 10% of the fastest. When the machine spent most of a run in its
// slow state, a size measured in one fast pass was pooled with two slow ones and took the slow
// state's time while its neighbours took the fast one's: a 3 KiB gather 1.83 µs in one run and
// 0.69 µs in the next. Refitting eight pairs of quick runs that spent 16–56% of their
// measurements in the slow state, the two models differed by a median of 1.7–11.1% at their
// points (five pairs under 3.5%), against 1.7–8.7% (five over 6%) with the three fastest alone,
// and 0–6 operations of 57 had a median residual over 5%, against 0–16.
std::vector<const Measurement*> fastest_passes(std::vector<const Measurement*> group) {
  constexpr std::size_t kFastestPasses = 3;
  constexpr double kSameStateSpread = 1.1;
  const std::size_t keep = std::min(kFastestPasses, (group.size() + 1) / 2);
  std::partial_sort(group.begin(), group.begin() + static_cast<std::ptrdiff_t>(keep), group.end(),
                    [](const Measurement* a, const Measurement* b) { return a->median < b->median; });
  group.resize(keep);
  const double fastest = group.front()->median;
  if (fastest > 0) std::erase_if(group, [&](const Measurement* m) { return m->median > kSameStateSpread * fastest; });
  return group;
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
  using Key = std::tuple<std::string, int, double>;
  std::map<Key, std::size_t> slot;
  std::vector<std::vector<const Measurement*>> groups;
  for (const auto& m : points) {
    auto [it, fresh] = slot.try_emplace(Key{m.op, m.p, m.bytes}, groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(&m);
  }
  std::vector<Measurement> pooled;
  pooled.reserve(groups.size());
  for (const auto& group : groups) pooled.push_back(pool(choice == StateChoice::reference ? fastest_passes(group) : group));
  return pooled;
}

}  // namespace augur::fit
