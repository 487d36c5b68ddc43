#include "fit/through_points.hpp"

#include <iterator>
#include <limits>
#include <map>
#include <string>

#include "fit/node_levels.hpp"

namespace augur::fit {

namespace {

using Times = std::map<double, double>;  // size -> time, both in the model's units

struct Line {
  double at_zero = 0, slope = 0;
};

Line line_through(double d0, double t0, double d1, double t1) {
  const double slope = (t1 - t0) / (d1 - d0);
  return {t0 - slope * d0, slope};
}

// At process count `low` the line `a`, at `high` the line `b`, and linear in p between them:
// a + (p - low) / (high - low) · (b - a), written out in the terms 1, d, p and p·d. One count
// (low == high) is the line `a` alone.
model::FittedForm patch(Line a, Line b, double low, double high) {
  model::FittedForm form;
  form.stats.points = low == high ? 2 : 4;
  if (low == high) {
    form.terms = {model::Term{model::Basis{}, a.at_zero, 0}, model::Term{model::Basis::parse("d"), a.slope, 0}};
    return form;
  }
  const double k = 1 / (high - low);
  const double rise0 = k * (b.at_zero - a.at_zero), rise1 = k * (b.slope - a.slope);
  form.terms = {model::Term{model::Basis{}, a.at_zero - low * rise0, 0},
                model::Term{model::Basis::parse("d"), a.slope - low * rise1, 0},
                model::Term{model::Basis::parse("p"), rise0, 0}, model::Term{model::Basis::parse("p*d"), rise1, 0}};
  return form;
}

model::Regime regime(model::FittedForm law, double from, double to) {
  model::Regime r;
  r.from = from;
  r.to = to;
  r.law = std::move(law);
  return r;
}

// Averaged where a size was printed more than once (two files).
Times printed_times(const std::vector<const Measurement*>& points, const model::Units& units) {
  std::map<double, std::pair<double, int>> sums;
  for (const auto* m : points) {
    auto& [sum, count] = sums[m->bytes / units.bytes_per_size_unit()];
    sum += m->median / units.seconds_per_time_unit();
    ++count;
  }
  Times times;
  for (const auto& [d, s] : sums) times[d] = s.first / s.second;
  return times;
}

// The regimes through `low`'s and `high`'s times, which were printed at the same sizes.
std::vector<model::Regime> patches_through(const Times& low, const Times& high, double p_low, double p_high,
                                           double bytes_per_size_unit) {
  std::vector<model::Regime> regimes;
  constexpr double kUnbounded = std::numeric_limits<double>::infinity();
  if (low.size() == 1) {  // one size (a barrier): the time, or the line in p through both counts
    const Line a{low.begin()->second, 0}, b{high.begin()->second, 0};
    return {regime(patch(a, b, p_low, p_high), 0, kUnbounded)};
  }
  // Below the smallest printed size the smallest's time: the first line carried down could fall
  // below zero.
  const double smallest = low.begin()->first;
  if (smallest > 0) {
    const Line a{low.begin()->second, 0}, b{high.begin()->second, 0};
    regimes.push_back(regime(patch(a, b, p_low, p_high), 0, smallest * bytes_per_size_unit));
  }
  for (auto lo = low.begin(), hi = high.begin(); std::next(lo) != low.end(); ++lo, ++hi) {
    const auto lo_next = std::next(lo), hi_next = std::next(hi);
    const Line a = line_through(lo->first, lo->second, lo_next->first, lo_next->second);
    const Line b = line_through(hi->first, hi->second, hi_next->first, hi_next->second);
    // The last patch carries on past the largest size.
    const bool last = std::next(lo_next) == low.end();
    regimes.push_back(regime(patch(a, b, p_low, p_high), lo->first * bytes_per_size_unit,
                             last ? kUnbounded : lo_next->first * bytes_per_size_unit));
  }
  return regimes;
}

bool same_sizes(const Times& a, const Times& b) {
  if (a.size() != b.size()) return false;
  for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j)
    if (i->first != j->first) return false;
  return true;
}

// The lines through one level's points, for its operations.
void lay_through(model::Operations& operations, const model::Units& units, const std::vector<Measurement>& points) {
  std::map<std::string, std::map<int, std::vector<const Measurement*>>> by_op;
  for (const auto& m : points) by_op[m.op][m.p].push_back(&m);
  for (const auto& [op, by_count] : by_op) {
    const auto found = operations.find(op);
    if (by_count.size() > 2 || found == operations.end()) continue;
    const auto& [p_low, low_points] = *by_count.begin();
    const auto& [p_high, high_points] = *by_count.rbegin();
    const auto low = printed_times(low_points, units), high = printed_times(high_points, units);
    if (!same_sizes(low, high)) continue;
    found->second.regimes = patches_through(low, high, p_low, p_high, units.bytes_per_size_unit());
  }
}

}  // namespace

void lay_laws_through_points(model::Model& model, const std::vector<Measurement>& points) {
  if (!model.nodes) return lay_through(model.operations, model.units, points);
  // A machine of nodes: each level's own points, split as the fitter split them.
  for (const auto& [level, level_points] : split_by_level(points)) {
    auto& nodes = *model.nodes;
    if (level == kOnNodeLevel) lay_through(nodes.on_node, model.units, level_points);
    else if (level == 1) lay_through(model.operations, model.units, level_points);
    else if (nodes.placements.contains(level)) lay_through(nodes.placements.at(level), model.units, level_points);
  }
}

}  // namespace augur::fit
