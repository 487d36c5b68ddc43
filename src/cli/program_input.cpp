#include "cli/program_input.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "app/app_program_json.hpp"
#include "app/extrapolation.hpp"
#include "cli/commands.hpp"
#include "cli/input_files.hpp"
#include "cli/named_numbers.hpp"
#include "cli/sim_setup.hpp"
#include "cli/trace_input.hpp"
#include "sim/program/generators.hpp"
#include "sim/program/replay.hpp"
#include "sim/program/schedule.hpp"

namespace augur::cli {
namespace fs = std::filesystem;

std::map<std::string, double> parse_settings(const std::vector<std::string>& settings) {
  return parse_named_numbers<std::map<std::string, double>>(settings, {"--set", "NAME=NUMBER, e.g. --set n=1024"});
}

namespace {

// The program of an application model at --ranks; a count far beyond the ones it was learned at
// is predicted, with a warning.
ProgramInput open_app(const ProgramRequest& r, const std::string& command, const std::string& bound) {
  if (!r.inputs.empty() || !r.generator.empty())
    throw UsageError("--app runs the model's program: give no trace, schedule or --generate with it");
  if (r.ranks < 1) throw UsageError("--app needs --ranks P, the number of ranks to simulate (1 or more)");
  const auto app = load_app_model_input(r.app, command + " --app");
  if (!app.program)
    throw UsageError(fmt::format("{}: {} has no program section, only phases (`augur plot {}` draws them); augur learn "
                                 "writes an app model with a program, docs/app-model-format.md says how to write one",
                                 r.app, app.name, r.app));
  sim::AppSettings settings;
  settings.parameters = parse_settings(r.settings);
  settings.bound = parse_bound(bound);
  settings.compute_scale = r.compute_scale;
  ProgramInput in;
  in.program = sim::instantiate(app, r.ranks, settings);
  in.app_model = app;
  in.app_settings = settings;
  in.source = r.app;
  in.kind = "app";
  in.trace_machine = app.program->machine;
  const auto& measured = app.program->measured_ranks;
  if (!measured.empty()) {
    const double factor = app::extrapolation_factor(r.ranks, measured);
    if (factor > 64)
      in.warnings.push_back(fmt::format("{} ranks is {:.0f}x the largest count the program was learned at ({}); "
                                        "the prediction's low and high bounds say how far its laws' errors reach",
                                        r.ranks, factor, *std::max_element(measured.begin(), measured.end())));
  }
  if (const auto& blocks = app.program->blocks_of_time; !blocks.empty()) {
    const auto& at = *std::max_element(blocks.begin(), blocks.end(), [](const auto& a, const auto& b) { return a.p < b.p; });
    in.warnings.push_back(fmt::format("a partial model: {:.0f}% of its run at p = {} ({:.0f} calls) is blocks of time between "
                                      "the world's collectives, learned as time and not as calls: they answer neither the "
                                      "network nor the machine's laws, and carry that share of the prediction's uncertainty",
                                      100 * at.share, at.p, at.calls));
  }
  return in;
}

}  // namespace

ProgramInput open_program(const ProgramRequest& r, const std::string& command, const std::string& bound) {
  if (!r.app.empty()) return open_app(r, command, bound);
  if (r.ranks != 0) throw UsageError("--ranks goes with --app");
  if (!r.settings.empty()) throw UsageError("--set goes with --app");
  ProgramInput in;
  if (!r.generator.empty()) {
    auto g = sim::generate(r.generator, r.inputs);
    in.program = std::move(g.program);
    in.algorithms = std::move(g.algorithms);
    in.source = g.description;
    in.kind = "generated";
    return in;
  }
  if (r.inputs.size() != 1)
    throw UsageError("give one trace directory or schedule file (or --generate NAME key=value…, or --app FILE --ranks P)");
  const fs::path path = r.inputs.front();
  in.source = path.string();
  const auto kind = trace_or_schedule(path, command);
  if (kind == ProgramFile::trace) {
    const auto t = open_trace(path, command, trace_or_schedule_expected());
    auto replay = sim::replay_program(t, r.compute_scale,
                                      r.match == "recorded" ? sim::Match::recorded : sim::Match::simulated);
    in.program = std::move(replay.program);
    in.skipped = std::move(replay.skipped);
    in.never_completed = replay.never_completed;
    in.trace_machine = t.header.machine;
    in.kind = "trace";
    return in;
  }
  // A GOAL file opening with `//` comments reads as text of no known kind until its lexer sees it.
  if (kind == ProgramFile::goal || sim::looks_like_goal(path.string())) {
    in.goal = sim::read_goal_file(path.string());
    in.kind = "goal";
    return in;
  }
  in.program = sim::read_schedule_file(path.string());
  in.kind = "schedule";
  return in;
}

}  // namespace augur::cli
