#include "fit/pooling.hpp"

#include "fit/machine_state.hpp"
#include "util/median.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <tuple>

namespace augur::fit {
namespace {

// A point that takes fewer state probes than this is made of the latencies the probe measures;
// one that takes more (over 1 Gbit/s TCP, above about 32 KiB) is paced by bandwidth, which does
// not follow the probe: scaled, such points of two runs disagreed more than pooled.
constexpr double kLatencyBoundProbes = 30;
// A pass whose probe read this many times the fastest pass's met the slower state.
constexpr double kSlowerProbe = 1.5;

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
  const double own = util::median(std::move(own_variances));
  mean /= k;
  double between = 0;
  for (const auto* m : group) between += (m->median - mean) * (m->median - mean);
  between /= (k - 1);
  return std::sqrt(std::max(own, between) / k);
}

// A point's passes in the machine's faster recurring state: the faster half of them, so that the
// pooled median is the lower quartile of all, a statistic of the machine that more passes
// estimate better but do not move. The state probe sees only how far apart the host placed ranks
// 0 and 1 (an 8-byte allreduce took 0.20 µs in some passes and 0.29 µs in others, the probe
// alike), so the passes are chosen by their own times.
//
// The rule this replaced, the three fastest within 10% of the fastest, took a third of five
// passes but an eighth of 25, and found in 25 a fast mode that five do not meet: over TCP an
// exchange of 128 B took 11.1 µs in one pass of 25 and 14.9–28.3 µs in the others, and a
// 25-pass model predicted communication-bound programs 9–42% shorter than a 5-pass one of the
// same machine. Refitting stored raw files of this machine and of the two TCP targets, the faster
// half made two runs' models differ by a median of 6.3% at their points (host, 25 passes each),
// 9.0–11.8% (three TCP runs of 5 passes) and 11.3–14.8% (5 passes against 25), against 9.5%,
// 14.6–19.8% and 23.5–36.3% with the rule it replaced (docs/fitting.md, "Machine states").
std::vector<const Measurement*> faster_half(std::vector<const Measurement*> group) {
  const std::size_t keep = (group.size() + 1) / 2;
  std::partial_sort(group.begin(), group.begin() + static_cast<std::ptrdiff_t>(keep), group.end(),
                    [](const Measurement* a, const Measurement* b) { return a->median < b->median; });
  group.resize(keep);
  return group;
}

Measurement pool(const std::vector<const Measurement*>& group) {
  if (group.size() == 1) return *group.front();
  Measurement m = *group.front();
  m.pass = 1;
  m.median = util::median(collect(group, [](const Measurement& x) { return std::optional(x.median); }));
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
  if (!skews.empty()) m.skew = util::median(skews);
  const auto errors = collect(group, [](const Measurement& x) { return x.clock_error; });
  if (!errors.empty()) m.clock_error = util::median(errors);
  const auto roots = collect(group, [](const Measurement& x) { return x.roles ? std::optional(x.roles->root) : std::nullopt; });
  const auto others = collect(group, [](const Measurement& x) { return x.roles ? std::optional(x.roles->others) : std::nullopt; });
  if (!roots.empty()) m.roles = RoleTimes{util::median(roots), util::median(others)};
  const auto probes = collect(group, [](const Measurement& x) { return x.state_probe; });
  if (!probes.empty()) m.state_probe = util::median(probes);
  return m;
}

// A point whose passes took a median of fewer than kLatencyBoundProbes state probes, each pass
// with its own probe.
bool latency_bound(const std::vector<const Measurement*>& group) {
  std::vector<double> ratios;
  for (const auto* m : group) {
    if (!m->state_probe) return false;
    ratios.push_back(m->median / *m->state_probe);
  }
  return util::median(std::move(ratios)) < kLatencyBoundProbes;
}

// Whether a latency-bound point's time moved with its passes' probes: the passes whose probe
// read more than kSlowerProbe times the fastest one took at least a third of the probes' step
// longer (in ratio, on a log scale) than the others. A one-sided put's lock epoch here took
// 1.72-1.78 µs in every pass while the 8-byte ping-pong probe read 104 ns in some and 355 ns in
// others: scaled to the faster probe it would have been 0.6 µs, a time it never took. A point
// whose passes all met one state follows by default.
bool follows_probe(const std::vector<const Measurement*>& group) {
  double fastest = INFINITY;
  for (const auto* m : group) fastest = std::min(fastest, *m->state_probe);
  std::vector<double> fast_times, slow_times, fast_probes, slow_probes;
  for (const auto* m : group) {
    const bool slow = *m->state_probe > kSlowerProbe * fastest;
    (slow ? slow_times : fast_times).push_back(m->median);
    (slow ? slow_probes : fast_probes).push_back(*m->state_probe);
  }
  if (slow_times.empty() || fast_times.empty()) return true;
  const double probes = util::median(slow_probes) / util::median(fast_probes);
  const double times = util::median(slow_times) / util::median(fast_times);
  return std::log(times) > std::log(probes) / 3;
}

// Each pass's times as they would have been with the probe at `probe`.
std::vector<Measurement> scaled_to_probe(const std::vector<const Measurement*>& group, double probe) {
  std::vector<Measurement> scaled;
  for (const auto* m : group) {
    Measurement s = *m;
    const double factor = probe / *m->state_probe;
    s.min *= factor;
    s.median *= factor;
    s.mean *= factor;
    s.max *= factor;
    s.stddev *= factor;
    if (s.roles) s.roles = RoleTimes{s.roles->root * factor, s.roles->others * factor};
    s.state_probe = probe;
    scaled.push_back(std::move(s));
  }
  return scaled;
}

// A point's passes in the reference state (probe at most `limit`). The faster half alone is the
// lower quartile of all passes, which lies in the slower state when the faster one held fewer
// than a quarter of them: under MPICH here a bench met the faster state in 3 passes of 25, its
// 1 MiB sendrecv took 198–206 µs in those and 344–549 µs in the others, and the faster half's
// median, 367 µs, predicted a ring of 1 MiB steps 88% long. The probe only decides the state;
// within it the passes are still chosen by their own times (faster_half).
std::vector<const Measurement*> in_reference_state(const std::vector<const Measurement*>& group, double limit) {
  std::vector<const Measurement*> reference;
  for (const auto* m : group)
    if (m->state_probe && *m->state_probe <= limit) reference.push_back(m);
  return reference;
}

// The faster of two pools: the faster half of the passes in the reference state, and the faster
// half of all. The probe tells where the host placed the ranks, which paces messages between
// them but not everything. Under MPICH here, in a bench whose probes met the faster state in 6%
// of its measurements (a raw file of 25 passes with the 5 richest in that state left out), a
// 64 KiB sendrecv took 18 µs in the one pass whose probe read the faster state and 31–35 µs in
// the 19 others; in the whole file a 1 MiB alltoallv took 1,396 µs in its one such pass and
// 370–1,300 µs in the others. Requiring three passes in the reference state (the rule before)
// kept the alltoallv's faster half but put the sendrecv, and a ring of such steps, in the slower
// state (+94% and +115% at 64 KiB and 1 MiB); the faster of the two keeps both at their best.
Measurement pool_faster_state(const std::vector<const Measurement*>& group, double limit) {
  const auto all = pool(faster_half(group));
  if (!(limit > 0)) return all;
  const auto reference = in_reference_state(group, limit);
  if (reference.empty() || reference.size() == group.size()) return all;
  const auto in_state = pool(faster_half(reference));
  return in_state.median < all.median ? in_state : all;
}

std::vector<const Measurement*> addresses(const std::vector<Measurement>& measurements) {
  std::vector<const Measurement*> out;
  for (const auto& m : measurements) out.push_back(&m);
  return out;
}

// The reference state of a latency-bound point: every pass scaled to the run's scaling probe, then
// pooled. Over TCP such a point follows the probe pass by pass (an 8-byte allreduce took 16.8 µs
// in the passes whose probe read 8.6–9.0 µs, 21.9–27.1 µs where it read 12.8–16.0 µs), and spells
// last longer than a pass: a 3-minute bench met the faster one in 2 passes of 9, so the faster
// half of its passes was the slower spell's. Scaled, the points of that bench and of a 30-minute
// one of the same target differed by a median of 4.4% below 256 B, against 13.8% with the faster
// half (docs/fitting.md, "Machine states"). Other points are pooled by pool_faster_state.
Measurement pool_reference(const std::vector<const Measurement*>& group, const model::MachineStates& states) {
  if (!(states.reference > 0) || group.size() < 2 || !latency_bound(group) || !follows_probe(group))
    return pool_faster_state(group, states.limit);
  const auto scaled = scaled_to_probe(group, states.reference);
  return pool(addresses(scaled));
}

}  // namespace

std::vector<Measurement> pool_repeated_points(const std::vector<Measurement>& points, model::StateChoice choice) {
  return pool_repeated_points(points, choice, machine_states(points));
}

std::vector<Measurement> pool_repeated_points(const std::vector<Measurement>& points, model::StateChoice choice,
                                              const model::MachineStates& states) {
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
  for (const auto& group : groups)
    pooled.push_back(choice == model::StateChoice::reference ? pool_reference(group, states) : pool(group));
  return pooled;
}

}  // namespace augur::fit
