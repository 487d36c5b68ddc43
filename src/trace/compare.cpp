#include "trace/compare.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>

namespace augur::trace {

namespace {

// Totals keyed by label in order of first appearance, as cmptrace printed them.
class OrderedTotals {
 public:
  StateTotal& at(int rank, const std::string& label) {
    auto [it, inserted] = index_.try_emplace(label, totals_.size());
    if (inserted) totals_.push_back({rank, label});
    return totals_[it->second];
  }
  std::vector<StateTotal> take() { return std::move(totals_); }

 private:
  std::map<std::string, std::size_t> index_;
  std::vector<StateTotal> totals_;
};

void compare_rank(int rank, const Trace& a, const Trace& b, TraceComparison& out,
                  OrderedTotals& per_state) {
  const auto& sa = a.ranks[rank].states;
  const auto& sb = b.ranks[rank].states;
  const auto& lines = a.ranks[rank].state_lines;
  OrderedTotals per_rank;
  std::size_t n = std::min(sa.size(), sb.size());
  for (std::size_t i = 0; i < n; ++i) {
    std::string label(a.label(sa[i]));
    if (label != b.label(sb[i])) {
      out.mismatches.push_back(fmt::format("p[{}] state {}: A is {}, B is {}; later states not compared",
                                           rank, i, label, b.label(sb[i])));
      break;
    }
    double da = sa[i].end - sa[i].begin, db = sb[i].end - sb[i].begin;
    auto line = i < lines.size() ? lines[i] : static_cast<std::uint32_t>(i);
    out.events.push_back({rank, label, da, db, line});
    auto& t = per_rank.at(rank, label);
    t.a += da;
    t.b += db;
  }
  if (sa.size() != sb.size() && out.mismatches.empty())
    out.mismatches.push_back(
        fmt::format("p[{}]: A has {} states, B has {}", rank, sa.size(), sb.size()));
  for (auto& t : per_rank.take()) {
    auto& c = per_state.at(-1, t.label);
    c.a = std::max(c.a, t.a);
    c.b = std::max(c.b, t.b);
    out.per_rank_state.push_back(std::move(t));
  }
}

int auto_decimals(const TraceComparison& c) {
  double longest = 0;
  for (const auto& t : c.per_rank_state) longest = std::max({longest, t.a, t.b});
  if (longest <= 0) return 2;
  return std::clamp(2 - static_cast<int>(std::floor(std::log10(longest))), 0, 9);
}

std::string ratio_text(double a, double b) {
  double r = ratio(a, b);
  return std::isfinite(r) ? fmt::format("{:.2f}", r) : (std::isnan(r) ? "-" : "inf");
}

std::string total_line(const StateTotal& t, int decimals) {
  std::string who = t.rank >= 0 ? fmt::format("p[{}] ", t.rank) : "";
  return fmt::format("{}{} {:.{}f} {:.{}f} {}\n", who, t.label, t.a, decimals, t.b, decimals,
                     ratio_text(t.a, t.b));
}

std::string divergence_summary(const TraceComparison& c, const ComparisonFormat& f, int d) {
  auto by_gap = [](const auto& x, const auto& y) { return std::abs(x.b - x.a) > std::abs(y.b - y.a); };
  std::string out = fmt::format("elapsed A {:.{}f} B {:.{}f} ratio {}\n", c.elapsed_a, d,
                                c.elapsed_b, d, ratio_text(c.elapsed_a, c.elapsed_b));
  auto totals = c.per_rank_state;
  std::partial_sort(totals.begin(), totals.begin() + std::min(f.top, totals.size()), totals.end(), by_gap);
  out += "largest differences per rank and state:\n";
  for (std::size_t i = 0; i < std::min(f.top, totals.size()); ++i)
    out += fmt::format("  {:+.{}f} ", totals[i].b - totals[i].a, d) + total_line(totals[i], d);
  auto events = c.events;
  std::partial_sort(events.begin(), events.begin() + std::min(f.top, events.size()), events.end(), by_gap);
  out += "largest differences per state:\n";
  for (std::size_t i = 0; i < std::min(f.top, events.size()); ++i)
    out += fmt::format("  {:+.{}f} p[{}] {} {:.{}f} {:.{}f} {} {}\n", events[i].b - events[i].a, d,
                       events[i].rank, events[i].label, events[i].a, d, events[i].b, d,
                       ratio_text(events[i].a, events[i].b), events[i].line);
  for (const auto& m : c.mismatches) out += "structure differs: " + m + "\n";
  return out;
}

}  // namespace

double ratio(double a, double b) {
  if (a != 0) return b / a;
  return b == 0 ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
}

TraceComparison compare_traces(const Trace& a, const Trace& b) {
  TraceComparison out;
  OrderedTotals per_state;
  int ranks = std::min(a.nranks(), b.nranks());
  if (a.nranks() != b.nranks())
    out.mismatches.push_back(fmt::format("A has {} ranks, B has {}", a.nranks(), b.nranks()));
  for (int r = 0; r < ranks; ++r) compare_rank(r, a, b, out, per_state);
  out.per_state = per_state.take();
  out.elapsed_a = a.end_time() - a.start_time();
  out.elapsed_b = b.end_time() - b.start_time();
  return out;
}

std::string format_comparison(const TraceComparison& c, const ComparisonFormat& f) {
  int d = f.decimals >= 0 ? f.decimals : auto_decimals(c);
  std::string out;
  if (f.level_a) {
    out += "# A: per state: rank state time-A time-B B/A line\n";
    for (const auto& e : c.events)
      out += fmt::format("p[{}] {} {:.{}f} {:.{}f} {} {}\n", e.rank, e.label, e.a, d, e.b, d,
                         ratio_text(e.a, e.b), e.line);
  }
  if (f.level_b) {
    out += "# B: per rank and state: rank state total-A total-B B/A\n";
    for (const auto& t : c.per_rank_state) out += total_line(t, d);
  }
  if (f.level_c) {
    out += "# C: per state, slowest rank: state total-A total-B B/A\n";
    for (const auto& t : c.per_state) out += total_line(t, d);
  }
  out += "# where the runs diverge most\n" + divergence_summary(c, f, d);
  return out;
}

nlohmann::json comparison_json(const TraceComparison& c) {
  auto total = [](const StateTotal& t) {
    nlohmann::json j = {{"state", t.label}, {"a", t.a}, {"b", t.b}};
    double r = ratio(t.a, t.b);
    j["ratio"] = std::isfinite(r) ? nlohmann::json(r) : nlohmann::json(nullptr);
    if (t.rank >= 0) j["rank"] = t.rank;
    return j;
  };
  nlohmann::json j = {{"elapsed", {{"a", c.elapsed_a}, {"b", c.elapsed_b}}},
                      {"per_state_event", nlohmann::json::array()},
                      {"per_rank_state", nlohmann::json::array()},
                      {"per_state", nlohmann::json::array()},
                      {"mismatches", c.mismatches}};
  for (const auto& e : c.events) {
    auto row = total({e.rank, e.label, e.a, e.b});
    row["line"] = e.line;
    j["per_state_event"].push_back(std::move(row));
  }
  for (const auto& t : c.per_rank_state) j["per_rank_state"].push_back(total(t));
  for (const auto& t : c.per_state) j["per_state"].push_back(total(t));
  return j;
}

}  // namespace augur::trace
