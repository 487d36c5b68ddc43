#include "learn/peer_rules.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "app/peer_resolution.hpp"
#include "learn/law_fit.hpp"
#include "sim/program/program.hpp"

namespace augur::learn {
namespace {

using Rule = app::PeerRule;
using Kind = app::PeerRule::Kind;

bool all_are(const std::vector<PeerSamples>& runs, std::int32_t value) {
  for (const auto& run : runs)
    for (const auto peer : run.peers)
      if (peer != value) return false;
  return true;
}

// The rule's integer parameter at each run (nothing when the run does not give one value), made
// into an exact law, and the rule kept if it then gives every peer.
std::optional<Rule> with_exact_law(Rule rule, const std::vector<PeerSamples>& runs, const std::string& parameter,
                                   const std::function<std::optional<long>(const PeerSamples&)>& value_of) {
  std::vector<LawPoint> points;
  for (const auto& run : runs) {
    const auto v = value_of(run);
    if (!v) return std::nullopt;
    points.push_back({double(run.p), run.n, double(*v)});
  }
  const auto law = fit_law(points, Quantity::integer, parameter);
  if (law.cv_error != 0) return std::nullopt;
  (rule.kind == Kind::fixed ? rule.rank : rule.by) = law;
  for (const auto& run : runs) {
    const long value = std::lround(evaluate_law(law, run.p, run.n, parameter));
    try {
      for (std::size_t i = 0; i < run.ranks.size(); ++i)
        if (apply_peer_rule(rule, run.ranks[i], run.p, value) != run.peers[i]) return std::nullopt;
    } catch (const std::invalid_argument&) {
      return std::nullopt;  // the rule names no rank of the run (app::peer_at): it reproduces none of its peers
    }
  }
  return rule;
}

// The value every member agrees on, or nothing.
std::optional<long> common(const PeerSamples& run, const std::function<std::optional<long>(int rank, std::int32_t peer)>& of) {
  std::optional<long> out;
  for (std::size_t i = 0; i < run.ranks.size(); ++i) {
    const auto v = of(run.ranks[i], run.peers[i]);
    if (!v) continue;
    if (out && *out != *v) return std::nullopt;
    out = v;
  }
  return out;
}

std::optional<Rule> fixed(const std::vector<PeerSamples>& runs, const std::string& parameter) {
  return with_exact_law(peer_rule(Kind::fixed), runs, parameter, [](const PeerSamples& run) {
    return common(run, [](int, std::int32_t peer) { return peer < 0 ? std::nullopt : std::optional<long>(peer); });
  });
}

// Offsets that wrap, taken upwards (0 … p−1) or downwards (−(p−1) … 0): rank − 1 is p − 1 at
// p = 2 and −1 at every p, so one of the two readings is a law.
std::optional<Rule> wrapping(const std::vector<PeerSamples>& runs, const std::string& parameter, bool downwards) {
  Rule rule = peer_rule(Kind::offset);
  rule.wrap = true;
  return with_exact_law(rule, runs, parameter, [downwards](const PeerSamples& run) {
    return common(run, [&](int rank, std::int32_t peer) -> std::optional<long> {
      if (peer < 0) return 0x7fffffffL;  // never agrees: no peer breaks a wrapping offset
      const long up = ((peer - rank) % run.p + run.p) % run.p;
      return downwards && up != 0 ? up - run.p : up;
    });
  });
}

std::optional<Rule> bounded(const std::vector<PeerSamples>& runs, const std::string& parameter) {
  Rule rule = peer_rule(Kind::offset);
  rule.wrap = false;
  return with_exact_law(rule, runs, parameter, [](const PeerSamples& run) {
    return common(run, [](int rank, std::int32_t peer) -> std::optional<long> {
      if (peer == sim::kNoPeer) return std::nullopt;
      return peer - rank;
    });
  });
}

std::optional<Rule> exclusive_or(const std::vector<PeerSamples>& runs, const std::string& parameter) {
  return with_exact_law(peer_rule(Kind::exclusive_or), runs, parameter, [](const PeerSamples& run) {
    return common(run, [](int rank, std::int32_t peer) -> std::optional<long> {
      if (peer < 0) return 0x7fffffffL;
      return long(peer ^ rank);
    });
  });
}

// Neighbours one step away along a dimension, then two (a halo two points wide over thin blocks),
// on grids numbered as MPI_Cart_create numbers them, then with the first dimension fastest (as
// LAMMPS numbers its processors). A neighbour two away is its own rank on a periodic side of one
// or two, so it is looked for only where some peer is another rank.
std::optional<Rule> grid(const std::vector<PeerSamples>& runs, int first_shift) {
  bool all_own = true;
  for (const auto& run : runs)
    for (std::size_t i = 0; all_own && i < run.ranks.size(); ++i) all_own = run.peers[i] == run.ranks[i];
  const auto holds = [&](const Rule& rule) {
    for (const auto& run : runs)
      for (std::size_t i = 0; i < run.ranks.size(); ++i)
        if (apply_peer_rule(rule, run.ranks[i], run.p, 0) != run.peers[i]) return false;
    return true;
  };
  for (const bool first_fastest : {false, true})
    for (const int dims : {2, 3})
      for (int dim = 0; dim < dims; ++dim)
        for (const int shift : {first_shift, -first_shift, 2 * first_shift, -2 * first_shift})
          for (const bool periodic : {false, true}) {
            if (std::abs(shift) == 2 && all_own) continue;
            Rule rule = peer_rule(Kind::grid);
            rule.dims = dims, rule.dim = dim, rule.shift = shift, rule.periodic = periodic;
            rule.first_fastest = first_fastest;
            if (holds(rule)) return rule;
          }
  return std::nullopt;
}

}  // namespace


std::int32_t apply_peer_rule(const app::PeerRule& rule, int rank, int p, long value) {
  switch (rule.kind) {
    case Kind::any: return sim::kAny;
    case Kind::none: return sim::kNoPeer;
    case Kind::reply: return sim::kLastSource;  // decided as the program runs
    default: break;
  }
  const auto peer = app::peer_rank(app::peer_at(rule, p, value), rank, p);
  return peer ? std::int32_t(*peer) : sim::kNoPeer;
}

std::optional<app::PeerRule> infer_peer_rule(const std::vector<PeerSamples>& runs, const std::string& parameter,
                                             PeerRole role) {
  if (all_are(runs, sim::kAny)) return peer_rule(Kind::any);
  if (all_are(runs, sim::kNoPeer)) return peer_rule(Kind::none);
  if (auto r = fixed(runs, parameter)) return r;
  // A grid's row above is also the offset −dims(p, 2, 1): the grid rule, which says why, comes first.
  if (auto r = grid(runs, role == PeerRole::destination ? 1 : -1)) return r;
  // rank − 1 reads as rank + (p − 1) upwards: a constant offset, either way, is the one kept.
  const auto up = wrapping(runs, parameter, false), down = wrapping(runs, parameter, true);
  if (up && (!down || up->by.coefficients.size() <= 1)) return up;
  if (down) return down;
  if (auto r = bounded(runs, parameter)) return r;
  return exclusive_or(runs, parameter);
}

}  // namespace augur::learn
