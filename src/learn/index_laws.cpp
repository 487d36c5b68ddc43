#include "learn/index_laws.hpp"

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
  bool varies = false;
  for (const auto peer : peers) varies = varies || peer != peers.front();
  if (!varies || peers.front() < 0) return std::nullopt;
  for (const bool range : {false, true})
    for (const bool minus_1 : {false, true})
      for (const int step : {1, -1}) {
        if (minus_1 && p < 2) continue;
        IndexPeer rule{range, peers.front(), step, minus_1};
        bool all = true;
        for (std::size_t i = 0; i < peers.size() && all; ++i) all = apply(rule, std::int64_t(i), p) == peers[i];
        if (all) return rule;
      }
  return std::nullopt;
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

}  // namespace augur::learn
