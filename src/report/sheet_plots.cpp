// The sheet's pictures: each operation's law drawn over message size (a line per group size) or,
// for a barrier, over the number of processes, with its min–max band, its regime breaks and the
// measurements it was fitted to; and the node's cache sweep.
#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "model/catalog.hpp"
#include "model/units.hpp"
#include "report/sheet.hpp"

namespace augur::report {
namespace {

constexpr int kDefaultMaxProcesses = 64;
constexpr double kDefaultMaxBytes = 1 << 20;
constexpr int kSamples = 64;
constexpr std::size_t kMaxLines = 4;

bool is_barrier(const model::Operation& op) {
  const auto* info = model::find_operation_info(op.name);
  return info && info->cls == model::OperationClass::barrier;
}

bool is_point_to_point(const model::Operation& op) {
  const auto* info = model::find_operation_info(op.name);
  return info && info->cls == model::OperationClass::point_to_point;
}

std::vector<MeasuredPoint> points_of(const SheetOptions& options, const std::string& op) {
  std::vector<MeasuredPoint> points;
  for (const auto& point : options.measured)
    if (point.op == op) points.push_back(point);
  return points;
}

// Time in µs, NaN where the model has no answer (beyond its last regime).
double microseconds(const model::Model& m, const model::Operation& op, double p, double bytes, model::Bound bound) {
  try {
    return m.seconds(op, p, bytes, bound) * 1e6;
  } catch (const model::QueryError&) {
    return std::nan("");
  }
}

double largest_bytes(const model::Operation& op, const SheetOptions& options, const std::vector<MeasuredPoint>& points) {
  double hi = options.max_bytes > 0 ? options.max_bytes : op.measured ? op.measured->max_bytes : kDefaultMaxBytes;
  for (const auto& point : points) hi = std::max(hi, point.bytes);
  // A law with a finite last regime answers nothing at or above its end.
  if (std::isfinite(op.regimes.back().to)) hi = std::min(hi, op.regimes.back().to - 1);
  return hi;
}

int largest_group(const model::Operation& op, const SheetOptions& options) {
  if (options.max_processes > 0) return options.max_processes;
  return op.measured ? static_cast<int>(op.measured->max_processes) : kDefaultMaxProcesses;
}

// Group sizes drawn as lines: the measured ones (at most four, spread out), else 2, 8, 32, 128
// up to the largest group, and the largest itself.
std::vector<double> group_sizes(const model::Operation& op, const SheetOptions& options,
                                const std::vector<MeasuredPoint>& points) {
  if (is_point_to_point(op)) return {2};
  std::set<double> measured;
  for (const auto& point : points) measured.insert(point.p);
  std::vector<double> ps(measured.begin(), measured.end());
  if (ps.empty()) {
    const int top = std::max(2, largest_group(op, options));
    for (int p = 2; p <= top; p *= 4) ps.push_back(p);
    if (ps.back() != top) ps.push_back(top);
  }
  if (ps.size() <= kMaxLines) return ps;
  std::vector<double> spread;
  for (std::size_t i = 0; i < kMaxLines; ++i) spread.push_back(ps[i * (ps.size() - 1) / (kMaxLines - 1)]);
  return spread;
}

// Log-spaced sizes, plus both sides of every regime break so a jump is drawn as a jump.
std::vector<double> sample_sizes(const model::Operation& op, double lo, double hi) {
  std::set<double> xs;
  for (int i = 0; i <= kSamples; ++i) xs.insert(lo * std::pow(hi / lo, double(i) / kSamples));
  for (const auto& r : op.regimes)
    if (r.from > lo && r.from <= hi) xs.insert({r.from * (1 - 1e-9), r.from});
  return {xs.begin(), xs.end()};
}

Curve law_curve(const model::Model& m, const model::Operation& op, const std::string& title,
                const std::vector<double>& xs, bool over_p, double fixed) {
  Curve c{title, {}, {}, {}, {}};
  for (double x : xs) {
    double p = over_p ? x : fixed, bytes = over_p ? fixed : x;
    c.x.push_back(x);
    c.y.push_back(microseconds(m, op, p, bytes, model::Bound::avg));
    c.low.push_back(microseconds(m, op, p, bytes, model::Bound::min));
    c.high.push_back(microseconds(m, op, p, bytes, model::Bound::max));
  }
  return c;
}

Marks measured_marks(const std::vector<MeasuredPoint>& points, bool over_p) {
  Marks marks{"measured", {}, {}, {}, {}, 0};
  for (const auto& point : points) {
    marks.x.push_back(over_p ? point.p : point.bytes);
    marks.y.push_back(point.median * 1e6);
    marks.low.push_back(point.min * 1e6);
    marks.high.push_back(point.max * 1e6);
  }
  return marks;
}

std::vector<std::pair<double, std::string>> byte_tics(double lo, double hi) {
  const int decades = static_cast<int>(std::ceil(std::log2(hi / lo)));
  const int step = std::max(1, (decades + 8) / 9);
  std::vector<std::pair<double, std::string>> tics;
  for (double x = std::exp2(std::floor(std::log2(lo))); x <= hi * 1.0001; x *= std::exp2(step))
    tics.emplace_back(x, model::format_bytes(x));
  return tics;
}

// An operation measured over group sizes and message sizes is drawn as one line per group size
// over a logarithmic size axis, each with its min–max band and its measurements in its colour,
// rather than as a gnuplot surface over (p, size). A surface hides the band (two more surfaces
// above and below it would hide the law), its height cannot be read off against an axis, its
// viewing angle decides which corner is seen, and measurements float in front of or behind it;
// the regime breaks it would show as creases are here vertical lines at the exact sizes. A few
// lines (kMaxLines, spread over the measured group sizes) show how p shifts and bends the law,
// and cost four curves of kSamples points instead of a grid, keeping the sheet fast to draw.
Plot size_plot(const model::Model& m, const model::Operation& op, const SheetOptions& options) {
  const auto points = points_of(options, op.name);
  const double lo = m.units.bytes_per_size_unit(), hi = std::max(lo * 2, largest_bytes(op, options, points));
  auto plot = make_plot(picture_stem(op.name), op.name + " on " + m.machine.name, "message size", "time (µs)", true, true);
  const auto xs = sample_sizes(op, lo, hi);
  for (double p : group_sizes(op, options, points)) {
    plot.curves.push_back(law_curve(m, op, fmt::format("p = {:g}", p), xs, false, p));
    std::vector<MeasuredPoint> at_p;
    for (const auto& point : points)
      if (point.p == p) at_p.push_back(point);
    if (at_p.empty()) continue;
    plot.marks.push_back(measured_marks(at_p, false));
    // Several group sizes: each one's measurements take its line's colour.
    if (!is_point_to_point(op)) plot.marks.back().colour = static_cast<int>(plot.curves.size());
  }
  if (plot.marks.size() > 1) {  // one legend entry is enough for the measurements
    plot.marks[0].title = "measured (colour of p)";
    for (std::size_t i = 1; i < plot.marks.size(); ++i) plot.marks[i].title.clear();
  }
  for (const auto& r : op.regimes)
    if (r.from > lo && r.from <= hi) plot.x_breaks.push_back(r.from);
  plot.x_tics = byte_tics(lo, hi);
  return plot;
}

Plot process_plot(const model::Model& m, const model::Operation& op, const SheetOptions& options) {
  const auto points = points_of(options, op.name);
  auto plot = make_plot(picture_stem(op.name), op.name + " on " + m.machine.name, "processes", "time (µs)", true, false);
  std::vector<double> ps;
  for (int p = 2; p <= std::max(2, largest_group(op, options)); ++p) ps.push_back(p);
  plot.curves.push_back(law_curve(m, op, op.name, ps, true, 0));
  if (!points.empty()) plot.marks.push_back(measured_marks(points, true));
  return plot;
}

Plot cache_plot(const model::Model& m) {
  auto plot = make_plot("node-cache", "cache sweep on " + m.machine.name, "working set", "time per dependent load (ns)", true, true);
  Curve c{"dependent loads in a random cycle", {}, {}, {}, {}};
  for (const auto& point : m.compute.cache_sweep) {
    c.x.push_back(point.bytes);
    c.y.push_back(point.seconds_per_access * 1e9);
  }
  plot.curves.push_back(std::move(c));
  plot.x_tics = byte_tics(m.compute.cache_sweep.front().bytes, m.compute.cache_sweep.back().bytes);
  return plot;
}

}  // namespace

std::vector<Plot> sheet_plots(const model::Model& m, const SheetOptions& options) {
  std::vector<Plot> plots;
  for (const auto* op : sheet_order(m))
    plots.push_back(is_barrier(*op) ? process_plot(m, *op, options) : size_plot(m, *op, options));
  if (!m.compute.cache_sweep.empty()) plots.push_back(cache_plot(m));
  return plots;
}

}  // namespace augur::report
