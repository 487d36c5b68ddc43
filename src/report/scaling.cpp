#include "report/scaling.hpp"

#include <algorithm>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "model/units.hpp"

namespace augur::report {
namespace fs = std::filesystem;
namespace {

std::set<double> sizes_of(const std::vector<RunPoint>& runs) {
  std::set<double> sizes;
  for (const auto& r : runs) sizes.insert(r.size);
  return sizes;
}

std::set<int> processes_of(const std::vector<RunPoint>& runs) {
  std::set<int> ps;
  for (const auto& r : runs) ps.insert(r.p);
  return ps;
}

const RunPoint* find_run(const std::vector<RunPoint>& runs, int p, double size) {
  for (const auto& r : runs)
    if (r.p == p && r.size == size) return &r;
  return nullptr;
}

// One row per p, one column per size; "?" where a run is missing (gnuplot skips it).
template <class Value>
void write_table(const fs::path& file, const std::set<int>& ps, const std::set<double>& sizes, Value value) {
  std::ofstream out(file);
  out << "# p";
  for (double d : sizes) out << fmt::format(" d={}", d);
  out << "\n";
  for (int p : ps) {
    out << p;
    for (double d : sizes) {
      auto v = value(p, d);
      out << ' ' << (v ? fmt::format("{:.9g}", *v) : std::string("?"));
    }
    out << "\n";
  }
  if (!out) throw std::runtime_error(file.string() + ": cannot write");
}

// The data files keep seconds; a time plot divides them by its unit so that its axis reads
// "time (ms)" with plain numbers rather than 1e-05.
std::string plot_command(const std::string& data, std::size_t columns, double per_unit = 1) {
  std::string cmd = "plot ";
  for (std::size_t i = 0; i < columns; ++i) {
    auto y = per_unit == 1 ? std::to_string(i + 2) : fmt::format("(${}*{:.0f})", i + 2, 1 / per_unit);
    cmd += fmt::format("{}'{}' using 1:{} with linespoints title columnhead({})", i ? ", " : "", data, y, i + 2);
  }
  return cmd + "\n";
}

// The unit a phase's plot reads in, chosen from its longest time over the runs.
model::TimeUnit plot_unit(const std::vector<RunPoint>& runs, const std::string& phase) {
  double longest = 0;
  for (const auto& r : runs) {
    if (phase == "total") longest = std::max(longest, r.total);
    else if (auto it = r.phases.find(phase); it != r.phases.end()) longest = std::max(longest, it->second);
  }
  return model::time_unit_for(longest);
}

}  // namespace

RunPoint parse_mkgraph(std::istream& in, const std::string& source) {
  RunPoint run;
  run.source = source;
  std::string line;
  int number = 0;
  bool header = false;
  std::vector<std::pair<std::string, double>> entries;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::istringstream words(line);
    auto where = fmt::format("{}:{}: ", source, number);
    if (!header) {
      std::string hash;
      if (!(words >> hash >> run.p >> run.size) || hash != "#" || run.p < 1 || run.size < 0)
        throw std::runtime_error(where + "expected the header '# <nprocs> <ndata>'");
      header = true;
      continue;
    }
    std::string phase;
    double seconds = 0;
    if (!(words >> phase >> seconds) || seconds < 0) throw std::runtime_error(where + "expected '<phase> <time>'");
    entries.emplace_back(phase, seconds);
  }
  if (entries.empty()) throw std::runtime_error(source + ": no '<phase> <time>' lines (the last one is the total)");
  run.total = entries.back().second;
  entries.pop_back();
  for (const auto& [phase, seconds] : entries) run.phases[phase] += seconds;
  return run;
}

RunPoint run_from_trace(const trace::Trace& trace, double size, const std::string& source) {
  RunPoint run;
  run.source = source;
  run.p = trace.nranks();
  run.size = size;
  run.total = trace.end_time() - trace.start_time();
  for (const auto& rank : trace.ranks) {
    std::map<std::string, double> open, spent;
    for (const auto& mark : rank.phases) {
      const auto& name = trace.names.at(mark.name);
      if (mark.begin) open[name] = mark.time;
      else if (open.contains(name)) spent[name] += mark.time - open[name];
    }
    for (const auto& [name, seconds] : spent) run.phases[name] = std::max(run.phases[name], seconds);
  }
  return run;
}

std::map<std::pair<double, int>, double> speedups(const std::vector<RunPoint>& runs) {
  std::map<std::pair<double, int>, double> result;
  for (double d : sizes_of(runs)) {
    const RunPoint* base = nullptr;
    for (const auto& r : runs)
      if (r.size == d && (!base || r.p < base->p)) base = &r;
    for (const auto& r : runs)
      if (r.size == d && r.total > 0) result[{d, r.p}] = base->total * base->p / r.total;
  }
  return result;
}

fs::path write_scaling_plots(const std::vector<RunPoint>& runs, const std::vector<RunPoint>& versus,
                             const fs::path& dir) {
  if (runs.empty()) throw std::runtime_error("no runs to plot");
  fs::create_directories(dir);
  const auto ps = processes_of(runs);
  const auto sizes = sizes_of(runs);
  std::set<std::string> phases{"total"};
  for (const auto& r : runs)
    for (const auto& [name, _] : r.phases) phases.insert(name);

  std::string script =
      "# Draws the scaling plots of augur scale: gnuplot scale.gp\n"
      "set terminal svg size 800,500 dynamic background rgb 'white'\n"
      "set key left top\nset grid\nset xlabel 'processes'\nset logscale x 2\n";
  for (const auto& phase : phases) {
    auto data = "time-" + phase + ".dat";
    write_table(dir / data, ps, sizes, [&](int p, double d) -> std::optional<double> {
      const auto* r = find_run(runs, p, d);
      if (!r) return std::nullopt;
      if (phase == "total") return r->total;
      auto it = r->phases.find(phase);
      return it == r->phases.end() ? std::nullopt : std::optional<double>(it->second);
    });
    const auto unit = plot_unit(runs, phase);
    script += fmt::format("set output 'time-{}.svg'\nset title 'time of {}'\nset ylabel 'time ({})'\n{}", phase, phase,
                          unit.name, plot_command(data, sizes.size(), unit.seconds));
  }
  auto s = speedups(runs);
  write_table(dir / "speedup.dat", ps, sizes, [&](int p, double d) -> std::optional<double> {
    auto it = s.find({d, p});
    return it == s.end() ? std::nullopt : std::optional<double>(it->second);
  });
  script += "set output 'speedup.svg'\nset title 'speedup'\nset ylabel 'speedup'\n" +
            plot_command("speedup.dat", sizes.size());
  if (!versus.empty()) {
    write_table(dir / "ratio.dat", ps, sizes, [&](int p, double d) -> std::optional<double> {
      const auto* a = find_run(runs, p, d);
      const auto* b = find_run(versus, p, d);
      if (!a || !b || a->total <= 0) return std::nullopt;
      return b->total / a->total;
    });
    script += "set output 'ratio.svg'\nset title 'total time, second set / first set'\nset ylabel 'ratio'\n" +
              plot_command("ratio.dat", sizes.size());
  }
  auto path = dir / "scale.gp";
  std::ofstream(path) << script;
  return path;
}

std::string format_runs(const std::vector<RunPoint>& runs) {
  std::string out = fmt::format("{:>6} {:>12} {:>12}  {}\n", "p", "size", "total", "run");
  for (const auto& r : runs)
    out += fmt::format("{:>6} {:>12} {:>12}  {}\n", r.p, model::significant(r.size, 6), model::format_seconds(r.total),
                       r.source);
  return out;
}

}  // namespace augur::report
