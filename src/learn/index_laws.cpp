#include "learn/index_laws.hpp"

#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

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
