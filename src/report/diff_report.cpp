#include "report/diff_report.hpp"

#include <cmath>

#include <fmt/format.h>

#include "model/units.hpp"

namespace augur::report {
namespace {

// Both machines may carry the same name (two fits of one machine): then they are told apart.
std::pair<std::string, std::string> labels(const calc::MachineDiff& diff) {
  if (diff.a != diff.b) return {diff.a, diff.b};
  return {diff.a + " (A)", diff.b + " (B)"};
}

std::string faster_text(const calc::MachineDiff& diff, calc::Faster f) {
  auto [a, b] = labels(diff);
  switch (f) {
    case calc::Faster::a: return a;
    case calc::Faster::b: return b;
    case calc::Faster::same: return "same";
    case calc::Faster::unknown: return "-";
  }
  return "-";
}

std::string time_text(double seconds) { return std::isfinite(seconds) ? model::format_seconds(seconds) : "no answer"; }

std::string point_row(const calc::MachineDiff& diff, const calc::OperationDiff& op, const calc::DiffPoint& d,
                      bool first) {
  const bool barrier = op.cls == model::OperationClass::barrier;
  auto ratio = std::isfinite(d.ratio()) ? fmt::format("{:.3g}", d.ratio()) : std::string("-");
  return fmt::format("{:<22} {:>4g} {:>10} {:>12} {:>12} {:>8}  {}\n", first ? op.op : "", d.p,
                     barrier ? "-" : model::format_bytes(d.bytes), time_text(d.a), time_text(d.b), ratio,
                     faster_text(diff, d.faster));
}

std::string crossover_text(const calc::MachineDiff& diff, const calc::OperationDiff& op, const calc::Crossover& c) {
  if (c.over_processes)
    return fmt::format("  {:<22} {} faster below p = {:g}, {} from p = {:g}\n", op.op, faster_text(diff, c.below), c.p,
                       faster_text(diff, c.above), c.p);
  auto size = model::format_bytes(c.bytes);
  if (c.bytes >= 1024) size += fmt::format(" ({:.6g} B)", c.bytes);
  return fmt::format("  {:<22} p = {:<4g} {} faster below {}, {} from there{}\n", op.op, c.p, faster_text(diff, c.below),
                     size, faster_text(diff, c.above), c.at_break ? " (a jump at a regime break)" : "");
}

std::string names(const std::vector<std::string>& ops) {
  std::string text;
  for (const auto& op : ops) text += (text.empty() ? "" : ", ") + op;
  return text;
}

nlohmann::json faster_json(const calc::MachineDiff& diff, calc::Faster f) {
  if (f == calc::Faster::unknown) return nullptr;
  return f == calc::Faster::same ? "same" : f == calc::Faster::a ? diff.a : diff.b;
}

nlohmann::json finite_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

}  // namespace

std::string format_diff(const calc::MachineDiff& diff) {
  auto [a, b] = labels(diff);
  std::string text = fmt::format("augur diff: {} (A) against {} (B); ratio = t_B / t_A, above 1 where {} is faster\n\n",
                                 diff.a, diff.b, a);
  text += fmt::format("{:<22} {:>4} {:>10} {:>12} {:>12} {:>8}  {}\n", "operation", "p", "size", a, b, "ratio", "faster");
  for (const auto& op : diff.operations)
    for (std::size_t i = 0; i < op.points.size(); ++i) text += point_row(diff, op, op.points[i], i == 0);
  text += fmt::format("\nCrossovers (message sizes {} to {}; a barrier's over p):\n", model::format_bytes(diff.options.min_bytes),
                      model::format_bytes(diff.options.max_bytes));
  bool any = false;
  for (const auto& op : diff.operations)
    for (const auto& c : op.crossovers) {
      text += crossover_text(diff, op, c);
      any = true;
    }
  if (!any) text += "  none: wherever both answer, the same machine is faster for each operation\n";
  if (!diff.only_a.empty()) text += "\nOnly " + diff.a + " models: " + names(diff.only_a) + "\n";
  if (!diff.only_b.empty()) text += "\nOnly " + diff.b + " models: " + names(diff.only_b) + "\n";
  return text;
}

nlohmann::json diff_to_json(const calc::MachineDiff& diff) {
  nlohmann::json ops = nlohmann::json::array();
  for (const auto& op : diff.operations) {
    nlohmann::json points = nlohmann::json::array(), crossovers = nlohmann::json::array();
    for (const auto& d : op.points)
      points.push_back({{"p", d.p}, {"bytes", d.bytes}, {"a_seconds", finite_or_null(d.a)},
                        {"b_seconds", finite_or_null(d.b)}, {"ratio", finite_or_null(d.ratio())},
                        {"faster", faster_json(diff, d.faster)}});
    for (const auto& c : op.crossovers)
      crossovers.push_back({{"over", c.over_processes ? "processes" : "size"}, {"p", c.p}, {"bytes", c.bytes},
                            {"below", faster_json(diff, c.below)}, {"above", faster_json(diff, c.above)},
                            {"at_regime_break", c.at_break}});
    ops.push_back({{"operation", op.op}, {"class", model::to_string(op.cls)}, {"points", points}, {"crossovers", crossovers}});
  }
  return {{"a", diff.a}, {"b", diff.b}, {"ratio", "b_seconds / a_seconds"}, {"operations", ops},
          {"only_a", diff.only_a}, {"only_b", diff.only_b}};
}

std::vector<Plot> diff_plots(const model::Model& a, const model::Model& b, const calc::MachineDiff& diff) {
  std::vector<Plot> plots;
  const double lo = diff.options.min_bytes, hi = diff.options.max_bytes;
  for (double p : diff.options.processes) {
    auto plot = make_plot(fmt::format("ratio-p{:g}", p),
                          fmt::format("{} / {} at p = {:g} (point-to-point at p = 2)", diff.b, diff.a, p), "message size",
                          fmt::format("t({}) / t({})", diff.b, diff.a), true, true);
    plot.y_reference = 1;
    for (const auto& op : diff.operations) {
      if (op.cls == model::OperationClass::barrier) continue;
      const double at_p = op.cls == model::OperationClass::point_to_point ? 2 : p;
      Curve c{op.op, {}, {}, {}, {}};
      for (int i = 0; i <= 64; ++i) {
        double bytes = lo * std::pow(hi / lo, i / 64.0);
        c.x.push_back(bytes);
        c.y.push_back(calc::seconds_or_nan(b, b.at(op.op), at_p, bytes) / calc::seconds_or_nan(a, a.at(op.op), at_p, bytes));
      }
      plot.curves.push_back(std::move(c));
    }
    for (double x = 1; x <= hi; x *= 32)
      if (x >= lo) plot.x_tics.emplace_back(x, model::format_bytes(x));
    plots.push_back(std::move(plot));
  }
  return plots;
}

}  // namespace augur::report
