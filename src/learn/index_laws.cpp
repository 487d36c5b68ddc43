#include "learn/index_laws.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "learn/peer_rules.hpp"

namespace augur::learn {
namespace {

std::int64_t modulo(std::int64_t x, std::int64_t m) { return ((x % m) + m) % m; }

std::int64_t apply(const IndexPeer& rule, std::int64_t i, int p) {
  const std::int64_t m = rule.modulus_p_minus_1 ? p - 1 : p;
  return rule.offset_range ? rule.first + modulo(rule.step * i, m) : modulo(rule.first + rule.step * i, m);
}

}  // namespace

std::optional<IndexPeer> fit_index_peer(const std::vector<std::int32_t>& peers, int p) {
  const auto all = index_peer_rules(peers, p);
  if (all.empty()) return std::nullopt;
  return all.front();
}

std::vector<IndexPeer> index_peer_rules(const std::vector<std::int32_t>& peers, int p) {
  std::vector<IndexPeer> out;
  bool varies = false;
  for (const auto peer : peers) varies = varies || peer != peers.front();
  if (!varies || peers.front() < 0) return out;
  for (const bool range : {false, true})
    for (const bool minus_1 : {false, true})
      for (const int step : {1, -1}) {
        if (minus_1 && p < 2) continue;
        IndexPeer rule{range, peers.front(), step, minus_1};
        bool all = true;
        for (std::size_t i = 0; i < peers.size() && all; ++i) all = apply(rule, std::int64_t(i), p) == peers[i];
        if (all) out.push_back(rule);
      }
  return out;
}

bool same_shape(const IndexPeer& a, const IndexPeer& b) {
  return a.offset_range == b.offset_range && a.step == b.step && a.modulus_p_minus_1 == b.modulus_p_minus_1;
}

std::string index_peer_text(const IndexPeer& rule, const std::string& first_expr, const std::string& index) {
  const auto modulus = rule.modulus_p_minus_1 ? "p-1" : "p";
  const auto moved = rule.step > 0 ? index : "-" + index;
  if (rule.offset_range) return fmt::format("{} + mod({}, {})", first_expr, moved, modulus);
  if (first_expr == "0") return fmt::format("mod({}, {})", moved, modulus);
  return fmt::format("mod({} {} {}, {})", first_expr, rule.step > 0 ? "+" : "-", index, modulus);
}

Affine fit_affine(const std::vector<double>& y) {
  const auto n = double(y.size());
  if (y.size() < 2) return {y.empty() ? 0 : y.front(), 0};
  const double mean_i = (n - 1) / 2;
  double mean_y = 0;
  for (const auto v : y) mean_y += v / n;
  double sxy = 0, sxx = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    sxy += (double(i) - mean_i) * (y[i] - mean_y);
    sxx += (double(i) - mean_i) * (double(i) - mean_i);
  }
  const double b = sxy / sxx;
  return {mean_y - b * mean_i, b};
}

std::vector<double> per_iteration(const std::vector<double>& values, std::uint32_t times) {
  std::vector<double> sum(times, 0.0), count(times, 0.0);
  for (std::size_t j = 0; j < values.size(); ++j) sum[j % times] += values[j], count[j % times] += 1;
  for (std::uint32_t i = 0; i < times; ++i) sum[i] = count[i] > 0 ? sum[i] / count[i] : 0;
  return sum;
}

namespace {

// The iteration at which the peers of `peers` (each member's the same) turn from one rule of the
// index to another, or 0 when they follow one rule or no two.
std::uint32_t turn_of(const std::vector<std::int32_t>& peers, int p) {
  if (fit_index_peer(peers, p)) return 0;
  for (auto s = std::uint32_t(peers.size() - 1); s >= 2; --s) {
    const std::vector<std::int32_t> head(peers.begin(), peers.begin() + s), tail(peers.begin() + s, peers.end());
    if (fit_index_peer(head, p) && (tail.size() == 1 || fit_index_peer(tail, p))) return s;
  }
  return 0;
}

bool splittable(const SampleNode& loop) {
  if (!loop.is_loop() || loop.times < 4) return false;
  for (const auto& n : loop.body) {
    if (n.is_loop()) return false;
    for (const auto& member : n.values)
      if (member.size() != loop.times) return false;
  }
  return true;
}

// The iteration where a root of the loop's body turns, the same for every call that turns.
std::uint32_t turn_of(const SampleNode& loop, int p) {
  std::uint32_t turn = 0;
  for (const auto& n : loop.body) {
    if (n.peers.empty() || n.peers.front().size() != loop.times) continue;
    // Answers to whoever asked follow the run, not the index (learner.cpp's reply rule).
    if (!n.replies.empty() && std::all_of(n.replies.begin(), n.replies.end(), [](char r) { return r != 0; })) continue;
    bool same = true;
    for (const auto& member : n.peers) same = same && member == n.peers.front();
    if (!same) continue;
    const auto s = turn_of(n.peers.front(), p);
    if (s == 0) continue;
    if (turn != 0 && turn != s) return 0;
    turn = s;
  }
  return turn;
}

SampleNode part(const SampleNode& loop, std::uint32_t from, std::uint32_t to) {
  SampleNode out = loop;
  out.times = to - from;
  for (auto& n : out.body) {
    for (std::size_t m = 0; m < n.values.size(); ++m) {
      n.values[m] = std::vector<double>(n.values[m].begin() + from, n.values[m].begin() + to);
      double sum = 0;
      for (const auto v : n.values[m]) sum += v;
      n.value[m] = sum / double(n.values[m].size());
    }
    for (std::size_t m = 0; m < n.peers.size(); ++m) {
      n.peers[m] = std::vector<std::int32_t>(n.peers[m].begin() + from, n.peers[m].begin() + to);
      if (m < n.peer.size()) n.peer[m] = n.peers[m].front();
    }
  }
  return out;
}

}  // namespace

void split_at_index_turns(std::vector<SampleNode>& body, int p) {
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (!body[i].is_loop()) continue;
    if (!splittable(body[i])) {
      split_at_index_turns(body[i].body, p);
      continue;
    }
    const auto turn = turn_of(body[i], p);
    if (turn == 0) continue;
    auto tail = part(body[i], turn, body[i].times);
    body[i] = part(body[i], 0, turn);
    body.insert(body.begin() + std::ptrdiff_t(i) + 1, std::move(tail));
    ++i;
  }
}

}  // namespace augur::learn

namespace augur::learn {

std::optional<std::string> dealt_count_law(const std::vector<std::pair<int, double>>& values,
                                           const std::vector<std::int64_t>& totals) {
  if (values.size() < 3) return std::nullopt;  // through two points, some k always passes
  for (const auto c : totals)
    for (const bool remainder : {false, true})
      for (const int minus : {1, 0}) {
        std::optional<double> k;
        bool all = true;
        for (const auto& [p, v] : values) {
          const std::int64_t m = p - minus;
          if (m < 1) return std::nullopt;
          const double dealt = double(remainder ? c % m : c / m);
          all = all && (!k || *k == v - dealt);
          k = v - dealt;
        }
        if (!all || !k || std::abs(*k) > 2) continue;
        const auto modulus = minus ? "p-1" : "p";
        auto text = remainder ? fmt::format("mod({}, {})", c, modulus) : fmt::format("floor({} / ({}))", c, modulus);
        if (*k != 0) text += fmt::format(" {} {}", *k > 0 ? "+" : "-", std::abs(*k));
        return text;
      }
  return std::nullopt;
}

}  // namespace augur::learn

// The index laws of the aligned nodes.
namespace augur::learn {
namespace {

// Each run's values of the node at each iteration of the enclosing loop, the members reduced
// by `slowest` (a compute) or their mean (a size; members with no peer left out).
std::vector<std::vector<double>> iterations(const AlignedNode& node, bool slowest, const IndexContext& index) {
  std::vector<std::vector<double>> out;
  const bool message = is_message(node.front()->op);
  for (std::size_t k = 0; k < node.size(); ++k) {
    std::vector<double> merged(index.times[k], 0.0);
    double members = 0;
    for (std::size_t m = 0; m < node[k]->values.size(); ++m) {
      if (message && node[k]->peer[m] == sim::kNoPeer) continue;
      const auto y = per_iteration(node[k]->values[m], index.times[k]);
      for (std::size_t i = 0; i < y.size(); ++i) merged[i] = slowest ? std::max(merged[i], y[i]) : merged[i] + y[i];
      members += 1;
    }
    if (!slowest && members > 0)
      for (auto& v : merged) v /= members;
    out.push_back(std::move(merged));
  }
  return out;
}

bool varies(const std::vector<std::vector<double>>& runs) {
  for (const auto& y : runs)
    for (const auto v : y)
      if (v != y.front()) return true;
  return false;
}

// The first iteration's share u of a line through the medians of the first and the last third
// of y (medians: a host's pause in one iteration does not make a trend), and whether the two
// differ by at least half the larger (a trend, where the others are the timer's noise).
std::optional<std::pair<double, bool>> trend_share(const std::vector<double>& y) {
  if (y.size() < 6) return std::nullopt;
  const auto third = y.size() / 3;
  const auto median = [](std::vector<double> v) {
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
    return v[v.size() / 2];
  };
  const double head = median({y.begin(), y.begin() + std::ptrdiff_t(third)});
  const double tail = median({y.end() - std::ptrdiff_t(third), y.end()});
  const double slope = (tail - head) / double(y.size() - third);  // centre to centre
  const double first = std::max(0.0, head - slope * double(third - 1) / 2);
  const double last = std::max(0.0, tail + slope * double(third - 1) / 2);
  if (first + last <= 0) return std::nullopt;
  return std::pair{first / (first + last), std::abs(head - tail) >= 0.5 * std::max(head, tail)};
}

// Nothing when every member kept its peer over its occurrences (the rules in rank and p then
// apply); a peer that moves by no rule of the index is refused.
std::optional<app::PeerRule> unchanging_peers(const AlignedNode& node, const std::string& here) {
  for (const auto* n : node)
    for (const auto& member : n->peers)
      for (const auto peer : member)
        if (peer != member.front())
          throw LearnError(fmt::format("{}: the peer changes from one iteration to the next by no rule of the "
                                       "iteration's index (mod(a ± i, p), a + mod(±i, p), or with p − 1)",
                                       here));
  return std::nullopt;
}

}  // namespace

// The mean over the iterations as a law in p, so that the loop's total is kept, and the share
// of it the line gives the first iteration, u in [0, 1] (the line then runs from 2u·mean to
// (2 − 2u)·mean and never goes below 0). A trend is one in most runs (trend_share).
std::optional<app::Law> indexed_seconds(const std::vector<GroupRun>& at, const AlignedNode& node,
                                        const std::string& where, IndexContext* index, LawBook& laws) {
  if (!index) return std::nullopt;
  const auto runs = iterations(node, true, *index);
  if (!varies(runs)) return std::nullopt;
  std::vector<double> mean, share;
  std::size_t trends = 0;
  for (const auto& y : runs) {
    const auto u = trend_share(y);
    if (!u) return std::nullopt;
    double m = 0;
    for (const auto v : y) m += v / double(y.size());
    mean.push_back(m);
    share.push_back(u->first);
    trends += u->second;
  }
  if (2 * trends < runs.size()) return std::nullopt;
  const auto m = laws.law(at, mean, Quantity::seconds, where, fmt::format("compute seconds, mean over {}", index->name));
  // The shape in i, unlike the mean, is taken as the same at every count: the runs' mean share.
  double mean_share = 0;
  for (const auto v : share) mean_share += v / double(share.size());
  app::Law u;
  u.expr = u.low = u.high = fmt::format("{:.4g}", mean_share);
  u.form = u.expr + ", the runs' mean";
  const auto [lo, hi] = std::minmax_element(share.begin(), share.end());
  u.cv_error = mean_share > 0 ? (*hi - *lo) / mean_share : 0;  // the spread between the runs, reported
  laws.record(where, fmt::format("compute's share at {} = 0", index->name), u);
  index->used = true;
  const auto line = [&](const std::string& mean_expr, const std::string& share_expr) {
    const auto s = fmt::format("min(1, max(0, {}))", share_expr);
    return fmt::format("({0}) * (2 * {1} + (2 - 4 * {1}) * {2} / max(1, ({3}) - 1))", mean_expr, s, index->name,
                       index->times_expr);
  };
  app::Law out;
  out.expr = line(m.expr, u.expr);
  out.low = line(m.low.empty() ? m.expr : m.low, u.expr);
  out.high = line(m.high.empty() ? m.expr : m.high, u.expr);
  out.cv_error = m.cv_error;
  return out;
}

std::optional<app::Law> indexed_bytes(const std::vector<GroupRun>& at, const AlignedNode& node,
                                      const std::string& here, IndexContext* index, LawBook& laws) {
  if (!index) return std::nullopt;
  const auto runs = iterations(node, false, *index);
  if (!varies(runs)) return std::nullopt;
  std::vector<double> first, step;
  for (const auto& y : runs) {
    const auto line = fit_affine(y);
    const double a = std::round(line.a), b = std::round(line.b);
    for (std::size_t i = 0; i < y.size(); ++i)
      if (a + b * double(i) != y[i]) return std::nullopt;
    first.push_back(a), step.push_back(b);
  }
  const auto a = laws.law(at, first, Quantity::integer, here, fmt::format("bytes at {} = 0", index->name));
  const auto b = laws.law(at, step, Quantity::integer, here, fmt::format("bytes per {}", index->name));
  if (!exact(a) || !exact(b)) return std::nullopt;
  index->used = true;
  return bare(app::Law{fmt::format("{} + ({}) * {}", a.expr, b.expr, index->name), "", "", "", {}, {}, 0});
}

std::optional<app::PeerRule> indexed_peer(const std::vector<GroupRun>& at, const AlignedNode& node,
                                          const std::string& here, IndexContext* index, LawBook& laws) {
  if (!index) return std::nullopt;
  std::optional<std::vector<IndexPeer>> shapes;  // the forms every run so far follows
  for (std::size_t k = 0; k < node.size(); ++k) {
    const auto& peers = node[k]->peers;
    if (peers.empty()) return std::nullopt;
    for (const auto& member : peers)
      if (member != peers.front()) return unchanging_peers(node, here);  // a peer per member: not a root's
    if (peers.front().size() != index->times[k]) return unchanging_peers(node, here);  // in an inner loop
    auto rules = index_peer_rules(peers.front(), at[k].run->p);
    if (shapes)
      std::erase_if(rules, [&](const IndexPeer& r) {
        return std::none_of(shapes->begin(), shapes->end(), [&](const IndexPeer& s) { return same_shape(r, s); });
      });
    if (rules.empty()) return unchanging_peers(node, here);
    shapes = std::move(rules);
  }
  const auto shape = shapes->front();
  std::vector<double> first;
  for (std::size_t k = 0; k < node.size(); ++k) first.push_back(double(node[k]->peers.front().front()));
  const auto a = laws.law(at, first, Quantity::integer, here, fmt::format("peer at {} = 0", index->name));
  if (!exact(a)) return unchanging_peers(node, here);
  index->used = true;
  auto rule = peer_rule(app::PeerRule::Kind::fixed);
  rule.rank = bare(app::Law{index_peer_text(shape, a.expr, index->name), "", "", "", {}, {}, 0});
  laws.record(here, "peer", rule.rank);
  return rule;
}

}  // namespace augur::learn
