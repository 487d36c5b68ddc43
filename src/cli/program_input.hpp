#pragma once
// The program a simulating command runs, read as `augur sim` reads it: a trace (replayed), a
// schedule, a GOAL file, a generated program, or an application model's program at --ranks.
// Shared by `augur sim` and `augur sensitivity` so both take the same inputs alike.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/app_model.hpp"
#include "sim/program/algorithms.hpp"
#include "sim/program/app_program.hpp"
#include "sim/program/goal.hpp"
#include "sim/program/program.hpp"

namespace augur::cli {

struct ProgramRequest {
  std::string generator;
  std::string app;                    // an application model whose program runs
  int ranks = 0;                      // at this many ranks
  std::vector<std::string> settings;  // its parameters, NAME=NUMBER
  std::string match = "simulated";
  double compute_scale = 1.0;
  std::vector<std::string> inputs;
};

// What runs, where it came from, and the machine a trace asks for when none is given.
struct ProgramInput {
  std::unique_ptr<sim::FlatProgram> program;
  std::unique_ptr<sim::GoalProgram> goal;  // a GOAL schedule, run as its dependency graph
  sim::AlgorithmChoice algorithms;
  std::string source, kind, trace_machine;
  std::vector<std::string> warnings;
  std::map<std::string, long> skipped;
  long never_completed = 0;
  std::optional<app::AppModel> app_model;  // with --app, for the runs at its laws' bounds
  sim::AppSettings app_settings;

  int nranks() const { return goal ? goal->nranks() : program->nranks(); }
};

std::map<std::string, double> parse_settings(const std::vector<std::string>& settings);

// `command` ("augur sim") names the command in errors; `bound` is the laws' bound of an app model.
ProgramInput open_program(const ProgramRequest& r, const std::string& command, const std::string& bound);

}  // namespace augur::cli
