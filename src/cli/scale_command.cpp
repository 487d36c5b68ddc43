// `augur scale`: time and speedup plots from runs over (p, size), and the ratio of two sets
// of runs (the seed's mkgraph and cmpgraph), drawn with gnuplot.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>

#include "cli/commands.hpp"
#include "cli/launcher.hpp"
#include "cli/trace_input.hpp"
#include "util/size.hpp"
#include "report/scaling.hpp"

namespace augur::cli {
namespace fs = std::filesystem;
namespace {

struct ScaleRequest {
  std::vector<std::string> runs, versus;
  std::string output = "plots";
  bool no_draw = false;
};

bool looks_like_mkgraph(const fs::path& path) {
  if (!fs::is_regular_file(path)) return false;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line) && line.find_first_not_of(" \t\r") == std::string::npos) {
  }
  return std::regex_search(line, std::regex(R"(^#\s*\d+\s+[0-9.eE+]+\s*$)"));
}

// RUN is a mkgraph file, or a trace (directory or file) with an optional @SIZE for its problem size.
report::RunPoint read_run(const std::string& spec) {
  auto at = spec.rfind('@');
  fs::path path = at == std::string::npos ? spec : spec.substr(0, at);
  if (!fs::exists(path)) throw UsageError(path.string() + ": no such file or directory");
  if (looks_like_mkgraph(path)) {
    std::ifstream in(path);
    return report::parse_mkgraph(in, path.string());
  }
  double size = 0;
  if (at != std::string::npos) {
    try {
      size = util::parse_size(spec.substr(at + 1), 4);
    } catch (const std::invalid_argument& e) {
      throw UsageError(spec + ": " + e.what());
    }
  }
  return report::run_from_trace(open_trace(path, "augur scale"), size, path.string());
}

std::vector<report::RunPoint> read_runs(const std::vector<std::string>& specs) {
  std::vector<report::RunPoint> runs;
  for (const auto& s : specs) runs.push_back(read_run(s));
  return runs;
}

void scale(const ScaleRequest& r) {
  const auto runs = read_runs(r.runs), versus = read_runs(r.versus);
  std::cout << report::format_runs(runs);
  if (!versus.empty()) std::cout << "versus\n" << report::format_runs(versus);
  auto script = report::write_scaling_plots(runs, versus, r.output);
  std::cout << "augur scale: data and " << script.string() << " written\n";
  if (r.no_draw) return;
  if (!find_in_path("gnuplot")) throw std::runtime_error("gnuplot not found: install gnuplot-nox, or use --no-draw");
  int status = run_and_wait({"sh", "-c", "cd '" + r.output + "' && gnuplot scale.gp"});
  if (status != 0) throw std::runtime_error("gnuplot failed on " + script.string());
  std::cout << "augur scale: plots drawn in " << r.output << "/ (time-*.svg, speedup.svg"
            << (r.versus.empty() ? "" : ", ratio.svg") << ")\n";
}

}  // namespace

void add_scale_command(CLI::App& app) {
  auto r = std::make_shared<ScaleRequest>();
  auto* cmd = app.add_subcommand("scale", "Time and speedup plots from runs over (p, size); ratio of two sets");
  cmd->footer(
      "A RUN is a file in the seed's mkgraph format ('# <nprocs> <ndata>', then '<phase> <time>' lines,\n"
      "the last one the total) or a trace with an optional @SIZE, e.g. traces/p4@1024. Phases of a\n"
      "trace come from augur_phase_begin/end; each phase's time is the longest over ranks.\n"
      "Examples:\n"
      "  augur scale runs/*.txt -o plots/\n"
      "  augur scale measured/*.txt --versus predicted/*.txt -o plots/   (adds ratio.svg)");
  cmd->add_option("runs", r->runs, "runs of the first set")->required();
  cmd->add_option("--versus", r->versus, "runs of a second set, compared with the first");
  cmd->add_option("-o,--output", r->output, "directory for the plots")->capture_default_str();
  cmd->add_flag("--no-draw", r->no_draw, "write the data and the gnuplot script only");
  cmd->callback([r] { scale(*r); });
}

}  // namespace augur::cli
