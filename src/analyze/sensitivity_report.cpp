#include "analyze/sensitivity_report.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "analyze/shares.hpp"
#include "model/units.hpp"

namespace augur::analyze {
namespace {

using model::format_seconds;
using model::significant;

// The parameter at some factor, in its unit: "3 µs", "6 ns/B" (per byte), "×2" for a factor.
std::string value_text(const sim::Knob& k, double factor) {
  if (k.unit == "s") return format_seconds(factor * k.value);
  if (k.unit == "s/B") return format_seconds(factor * k.value) + "/B";
  return "×" + significant(factor);
}

// dT/dx in words, per a step a person thinks in: "35 s per s" of a time (the issue's ∂T/∂L, on
// LogGOPS the latencies on the path), "107.4 µs per ns/B" of a time per byte, "70 µs per +1%"
// of a factor. `slope` is dT/dfactor, in seconds.
std::string slope_text(const sim::Knob& k, double slope) {
  if (k.unit == "s") return significant(slope / k.value, 6) + " s per s";
  if (k.unit == "s/B") return format_seconds(slope / k.value * 1e-9) + " per ns/B";
  return format_seconds(slope / 100) + " per +1%";
}

std::string growth_text(double t, double baseline) {
  if (!(baseline > 0)) return "";
  const double g = (t / baseline - 1) * 100;
  return fmt::format("{}{}%", g >= 0 ? "+" : "", significant(g, 3));
}

std::string tolerance_text(const sim::Knob& k, const Tolerance& t) {
  if (!std::isfinite(t.factor)) return "never";
  return fmt::format("×{} ({})", significant(t.factor, 4), value_text(k, t.factor));
}

std::string carriers_text(const Carriers& c) {
  std::string ops, ranks;
  for (const auto& [name, s] : c.operations)
    ops += fmt::format("{}{} {:.1f}%", ops.empty() ? "" : ", ", readable_operation(name),
                       c.path > 0 ? 100 * s / c.path : 0);
  for (const auto& [rank, s] : c.ranks)
    ranks += fmt::format("{}rank {} {:.1f}%", ranks.empty() ? "" : ", ", rank, c.path > 0 ? 100 * s / c.path : 0);
  return fmt::format("critical path {}: {}; {}", format_seconds(c.path), ops, ranks);
}

nlohmann::json carriers_json(const Carriers& c) {
  nlohmann::json ops = nlohmann::json::object(), ranks = nlohmann::json::object();
  for (const auto& [name, s] : c.operations) ops[name] = s;
  for (const auto& [rank, s] : c.ranks) ranks[std::to_string(rank)] = s;
  return {{"path_seconds", c.path}, {"operations", ops}, {"ranks", ranks}};
}

std::string file_stem(std::string name) {
  for (auto& ch : name)
    if (ch == ':' || ch == '/') ch = '-';
  return name;
}

// The samples and the runs the tolerances found, by factor: a tolerance past the last sample
// (the latency of a halo hidden up to x20) is drawn on the curve, not beyond its end.
std::vector<std::pair<double, double>> curve_points(const ParameterSensitivity& p) {
  std::vector<std::pair<double, double>> out;
  for (const auto& pt : p.points) out.emplace_back(pt.factor, pt.time);
  for (const auto& t : p.tolerances)
    if (std::isfinite(t.factor)) out.emplace_back(t.factor, t.time);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first == b.first; }), out.end());
  return out;
}

}  // namespace

std::string format_sensitivity(const Sensitivity& s, const std::string& title) {
  std::string out = fmt::format("Sensitivity of {}: run time {} as it is ({} simulations in {:.3g} s)\n\n", title,
                                format_seconds(s.baseline), s.simulations, s.wall_seconds);
  out += fmt::format("{:<10} {:>12} {:>18} {:>7}", "parameter", "as it is", "slope", "share");
  if (!s.parameters.empty())
    for (const auto& t : s.parameters.front().tolerances) out += fmt::format("  {:>22}", fmt::format("+{}% at", significant(100 * t.growth)));
  out += "\n";
  for (const auto& p : s.parameters) {
    out += fmt::format("{:<10} {:>12} {:>18} {:>6.1f}%", p.knob.name, value_text(p.knob, 1),
                       slope_text(p.knob, p.slope.right), 100 * p.slope.share);
    for (const auto& t : p.tolerances) out += fmt::format("  {:>22}", tolerance_text(p.knob, t));
    out += "\n";
  }
  out += "\nslope: what the run gains as the parameter worsens from the machine as it is: seconds of run per\n"
         "second of a time, per ns/B of a time per byte, per +1% of a factor; share: the part of the run the\n"
         "parameter carries (dT/dx · x / T); +N% at: the factor at which the run has grown by N% (its tolerance).\n";
  for (const auto& p : s.parameters) {
    out += fmt::format("\n{} ({}, {}): slope {}{}, {:.1f}% of the run{}\n", p.knob.name, p.knob.meaning,
                       value_text(p.knob, 1), slope_text(p.knob, p.slope.right),
                       p.slope.left != p.slope.right ? fmt::format(" ({} below)", slope_text(p.knob, p.slope.left)) : "",
                       100 * p.slope.share, p.slope.linear ? "" : "; not linear just above");
    out += fmt::format("  {:>8} {:>12} {:>12} {:>8}\n", "factor", "value", "run time", "change");
    for (const auto& pt : p.points)
      out += fmt::format("  {:>8} {:>12} {:>12} {:>8}\n", "×" + significant(pt.factor), value_text(p.knob, pt.factor),
                         format_seconds(pt.time), growth_text(pt.time, s.baseline));
    for (const auto& t : p.tolerances) {
      out += fmt::format("  +{}%: {}", significant(100 * t.growth), tolerance_text(p.knob, t));
      if (std::isfinite(t.factor)) out += fmt::format(" ({}); {}", format_seconds(t.time), carriers_text(t.carriers));
      out += "\n";
    }
  }
  if (s.noise) {
    const auto& n = *s.noise;
    out += fmt::format("\nNoise {} on every compute grain, {} seeds: mean {} ({}), spread {} (sd), {} to {}\n",
                       n.distribution, n.times.size(), format_seconds(n.mean), growth_text(n.mean, s.baseline),
                       format_seconds(n.sd), format_seconds(n.min), format_seconds(n.max));
  }
  return out;
}

nlohmann::json to_json(const Sensitivity& s) {
  nlohmann::json params = nlohmann::json::array();
  for (const auto& p : s.parameters) {
    nlohmann::json points = nlohmann::json::array(), tolerances = nlohmann::json::array();
    for (const auto& pt : p.points) points.push_back({{"factor", pt.factor}, {"value", pt.value}, {"seconds", pt.time}});
    for (const auto& t : p.tolerances) {
      nlohmann::json j = {{"growth", t.growth}, {"runs", t.runs}};
      if (std::isfinite(t.factor)) {
        j["factor"] = t.factor;
        j["below"] = t.below;  // the largest factor run that stayed below the growth
        j["value"] = t.value;
        j["seconds"] = t.time;
        j["critical_path"] = carriers_json(t.carriers);
      } else {
        j["factor"] = nullptr;  // not reached below the search's largest factor
      }
      tolerances.push_back(j);
    }
    params.push_back({{"name", p.knob.name},
                      {"meaning", p.knob.meaning},
                      {"value", p.knob.value},
                      {"unit", p.knob.unit},
                      {"points", points},
                      {"slope",
                       {{"step", p.slope.step},
                        {"per_factor", p.slope.right},
                        {"per_factor_below", p.slope.left},
                        {"per_unit", p.slope.per_unit},
                        {"share", p.slope.share},
                        {"linear", p.slope.linear}}},
                      {"tolerances", tolerances}});
  }
  int tolerance_runs = 0;
  for (const auto& p : s.parameters)
    for (const auto& t : p.tolerances) tolerance_runs += t.runs;
  nlohmann::json j = {{"baseline_seconds", s.baseline}, {"simulations", s.simulations},
                      {"wall_seconds", s.wall_seconds},
                      {"tolerance_search",
                       {{"precision", s.search.precision},
                        {"max_factor", s.search.max_factor},
                        {"max_runs_each", s.search.max_runs},
                        {"runs", tolerance_runs}}},
                      {"parameters", params}};
  if (s.noise)
    j["noise"] = {{"distribution", s.noise->distribution}, {"seconds", s.noise->times}, {"mean", s.noise->mean},
                  {"sd", s.noise->sd}, {"min", s.noise->min}, {"max", s.noise->max}};
  return j;
}

std::vector<report::Plot> sensitivity_plots(const Sensitivity& s, const std::string& stem, const std::string& title) {
  std::vector<report::Plot> plots;
  auto all = report::make_plot(stem + "-all", "Run time against each parameter: " + title,
                               "factor of the parameter (above 1: a worse machine)", "run time / run time as it is", true, false);
  all.y_reference = 1;
  for (const auto& p : s.parameters) {
    auto plot = report::make_plot(stem + "-" + file_stem(p.knob.name),
                                  fmt::format("{}: {} ({} as it is)", title, p.knob.meaning, value_text(p.knob, 1)),
                                  fmt::format("factor of {} (above 1: a worse machine)", p.knob.name), "run time (ms)", true, false);
    report::Curve c{"run time", {}, {}, {}, {}};
    report::Curve r{p.knob.name, {}, {}, {}, {}};
    for (const auto& [factor, time] : curve_points(p)) {
      c.x.push_back(factor), c.y.push_back(time * 1e3);
      r.x.push_back(factor), r.y.push_back(s.baseline > 0 ? time / s.baseline : 0);
    }
    plot.curves.push_back(std::move(c));
    all.curves.push_back(std::move(r));
    plot.y_reference = s.baseline * 1e3;
    int colour = 1;
    for (const auto& t : p.tolerances) {
      ++colour;
      if (!std::isfinite(t.factor)) continue;
      plot.x_breaks.push_back(t.factor);
      plot.marks.push_back({fmt::format("+{}% at ×{}", significant(100 * t.growth), significant(t.factor, 4)),
                            {t.factor}, {t.time * 1e3}, {t.time * 1e3}, {t.time * 1e3}, colour});
    }
    plots.push_back(std::move(plot));
  }
  plots.insert(plots.begin(), std::move(all));
  return plots;
}

}  // namespace augur::analyze
