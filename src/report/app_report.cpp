#include "report/app_report.hpp"

#include <cctype>
#include <map>

#include <fmt/format.h>

#include "model/units.hpp"

namespace augur::report {
namespace {

Plot over_p(const std::string& name, const std::string& title, const std::string& ylabel, const app::Evaluation& e,
            bool log_y) {
  return make_plot(name, title, "processes", ylabel, e.doubling, log_y);
}

// A machine's name as part of a file name: a model read from a file may call itself anything.
std::string file_part(const std::string& name) {
  std::string part;
  for (char c : name) part += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
  return part;
}

Curve curve_of(const std::string& title, const app::Series& s, auto value) {
  Curve c{title, {}, {}, {}, {}};
  for (const auto& row : s.rows) {
    c.x.push_back(row.p);
    c.y.push_back(value(row));
  }
  return c;
}

}  // namespace

void write_app_csv(const app::Evaluation& e, std::ostream& out) {
  out << "machine";
  for (const auto& name : e.parameter_names) out << ',' << name;
  out << ",p";
  for (const auto& name : e.phase_names) out << ',' << name << "_us";
  out << ",total_us,speedup\n";
  for (const auto& s : e.series)
    for (const auto& row : s.rows) {
      out << s.machine;
      for (double v : s.parameters) out << fmt::format(",{:.9g}", v);
      out << fmt::format(",{:g}", row.p);
      for (double v : row.phases) out << fmt::format(",{:.9g}", v);
      out << fmt::format(",{:.9g},{:.9g}\n", row.total, row.speedup);
    }
}

std::string format_app_summary(const std::string& name, const app::Evaluation& e) {
  std::string text = fmt::format("{:<28} {:>7} {:>14} {:>9} {:>14}\n", name + " on", "best p", "time there", "speedup",
                                 "time at p = 1");
  for (const auto& s : e.series) {
    const auto& best = s.rows[s.best];
    text += fmt::format("{:<28} {:>7g} {:>14} {:>9.3g} {:>14}\n", app::series_label(e, s), best.p,
                        model::format_seconds(best.total * 1e-6), best.speedup,
                        model::format_seconds(best.total * best.speedup * 1e-6));
  }
  for (const auto& note : e.notes) text += "Note: " + note + "\n";
  return text;
}

std::vector<Plot> app_plots(const std::string& name, const app::Evaluation& e) {
  auto time = over_p(name + "-time", name + ": predicted time", "time (µs)", e, true);
  auto speedup = over_p(name + "-speedup", name + ": speedup T(1) / T(p)", "speedup", e, false);
  for (const auto& s : e.series) {
    const auto label = app::series_label(e, s);
    time.curves.push_back(curve_of(label, s, [](const app::Row& r) { return r.total; }));
    speedup.curves.push_back(curve_of(label, s, [](const app::Row& r) { return r.speedup; }));
  }
  std::vector<Plot> plots{time, speedup};
  std::map<std::string, const app::Series*> last;  // per machine
  for (const auto& s : e.series) last[s.machine] = &s;
  for (const auto& [machine, s] : last) {
    auto phases = over_p(name + "-phases-" + file_part(machine), name + " phases: " + app::series_label(e, *s), "time (µs)", e, true);
    for (std::size_t i = 0; i < e.phase_names.size(); ++i)
      phases.curves.push_back(curve_of(e.phase_names[i], *s, [i](const app::Row& r) { return r.phases[i]; }));
    phases.curves.push_back(curve_of("total", *s, [](const app::Row& r) { return r.total; }));
    plots.push_back(std::move(phases));
  }
  return plots;
}

}  // namespace augur::report
