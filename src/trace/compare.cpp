#include "trace/compare.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "model/units.hpp"

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
                                           rank, i, model::mpi_name(label), model::mpi_name(b.label(sb[i]))));
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

// The times of a comparison share one unit, chosen from the longest per-rank total, with enough
// decimals for three significant digits of it: the seed's cmptrace printed seconds with two
// decimals, and its worked example still reads so. A non-zero time too short to show two digits
// in that unit (a 2 µs MPI_Isend beside 30 ms of compute) carries its own unit instead of
// reading 0.000.
class TimeText {
 public:
  TimeText(const TraceComparison& c, int decimals) {
    double longest = 0;
    for (const auto& t : c.per_rank_state) longest = std::max({longest, t.a, t.b});
    unit_ = model::time_unit_for(longest);
    const double in_unit = longest / unit_.seconds;
    decimals_ = decimals >= 0 ? decimals
                : in_unit > 0 ? std::clamp(2 - static_cast<int>(std::floor(std::log10(in_unit))), 0, 9)
                              : 2;
  }

  std::string operator()(double seconds) const { return text(seconds, false); }
  std::string signed_text(double seconds) const { return text(seconds, true); }
  std::string legend() const {
    return fmt::format("# times in {}; a time too short for two digits in {} carries its own unit\n", unit_.name,
                       unit_.name);
  }

 private:
  std::string text(double seconds, bool sign) const {
    const double value = seconds / unit_.seconds;
    if (seconds == 0) return "0";
    if (std::abs(value) >= std::pow(10.0, 1 - decimals_))
      return sign ? fmt::format("{:+.{}f}", value, decimals_) : fmt::format("{:.{}f}", value, decimals_);
    return fmt::format("{}{}", sign && seconds > 0 ? "+" : "", model::format_seconds(seconds));
  }

  model::TimeUnit unit_;
  int decimals_;
};

// Two decimals, as the seed printed ratios; a ratio too small for them keeps two significant
// figures (0.00065, not 0.00), and an exact zero reads 0 as a zero time does.
std::string ratio_text(double a, double b) {
  double r = ratio(a, b);
  if (!std::isfinite(r)) return std::isnan(r) ? "-" : "inf";
  if (r == 0) return "0";
  return r < 0.1 ? model::significant(r, 2) : fmt::format("{:.2f}", r);
}

std::string total_line(const StateTotal& t, const TimeText& time) {
  std::string who = t.rank >= 0 ? fmt::format("p[{}] ", t.rank) : "";
  return fmt::format("{}{} {} {} {}\n", who, model::mpi_name(t.label), time(t.a), time(t.b), ratio_text(t.a, t.b));
}

std::string event_line(const StatePair& e, const TimeText& time) {
  return fmt::format("p[{}] {} {} {} {} {}\n", e.rank, model::mpi_name(e.label), time(e.a), time(e.b),
                     ratio_text(e.a, e.b), e.line);
}

// The `top` entries of `rows` with the largest gap between B and A, each after its gap.
template <class Row, class Line>
std::string largest_gaps(std::vector<Row> rows, std::size_t top, const TimeText& time, Line line) {
  auto by_gap = [](const auto& x, const auto& y) { return std::abs(x.b - x.a) > std::abs(y.b - y.a); };
  top = std::min(top, rows.size());
  std::partial_sort(rows.begin(), rows.begin() + top, rows.end(), by_gap);
  std::string out;
  for (std::size_t i = 0; i < top; ++i) out += "  " + time.signed_text(rows[i].b - rows[i].a) + " " + line(rows[i], time);
  return out;
}

std::string divergence_summary(const TraceComparison& c, const ComparisonFormat& f, const TimeText& time) {
  std::string out = fmt::format("elapsed A {} B {} ratio {}\n", time(c.elapsed_a), time(c.elapsed_b),
                                ratio_text(c.elapsed_a, c.elapsed_b));
  out += "largest differences per rank and state:\n" + largest_gaps(c.per_rank_state, f.top, time, total_line);
  out += "largest differences per state:\n" + largest_gaps(c.events, f.top, time, event_line);
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
  const TimeText time(c, f.decimals);
  std::string out = time.legend();
  if (f.level_a) {
    out += "# A: per state: rank state time-A time-B B/A line\n";
    for (const auto& e : c.events) out += event_line(e, time);
  }
  if (f.level_b) {
    out += "# B: per rank and state: rank state total-A total-B B/A\n";
    for (const auto& t : c.per_rank_state) out += total_line(t, time);
  }
  if (f.level_c) {
    out += "# C: per state, slowest rank: state total-A total-B B/A\n";
    for (const auto& t : c.per_state) out += total_line(t, time);
  }
  out += "# where the runs diverge most\n" + divergence_summary(c, f, time);
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
