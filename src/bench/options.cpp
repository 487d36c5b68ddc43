#include "bench/options.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <iostream>
#include <stdexcept>

#include "bench/operation_table.hpp"
#include "bench/plan.hpp"
#include "util/size.hpp"

namespace augur::bench {
namespace {

struct Overrides {
  std::string preset = "quick";
  std::vector<std::string> operations;
  std::vector<int> groups;
  std::string max_size;
  double target = 0, point_seconds = 0, budget = 0, refine_tolerance = 0;
  int warmup = 0, min_reps = 0, max_reps = 0, refine = 0;
};

std::uint64_t parse_bytes(const std::string& text) {
  const double bytes = util::parse_size(text, kIntBytes);
  if (bytes != std::floor(bytes)) throw std::invalid_argument("size '" + text + "' is not a whole number of bytes");
  return static_cast<std::uint64_t>(bytes);
}

void check(const SweepSettings& s, int world) {
  for (const auto& name : s.operations)
    if (!find_operation_shape(name)) throw std::invalid_argument("unknown operation '" + name + "'");
  int largest_group = 2;
  for (int p : s.groups) {
    if (p < 2 || p > world)
      throw std::invalid_argument("group size " + std::to_string(p) + " is outside 2.." + std::to_string(world));
    largest_group = std::max(largest_group, p);
  }
  if (s.groups.empty()) largest_group = world;
  // Counts and displacements of p blocks must fit an MPI int.
  if (s.max_bytes * std::uint64_t(largest_group) > std::uint64_t(INT_MAX))
    throw std::invalid_argument("--max-size " + std::to_string(s.max_bytes) + " times the group size " +
                                std::to_string(largest_group) + " exceeds what one MPI call can address (2 GiB)");
  if (!(s.target > 0)) throw std::invalid_argument("--target must be > 0");
  if (s.min_reps < 1 || s.max_reps < s.min_reps)
    throw std::invalid_argument("need 1 <= --min-reps <= --max-reps");
  if (s.passes < 1 || s.passes > kMostPasses || s.pass < 1 || s.pass > s.passes)
    throw std::invalid_argument("need 1 <= --pass <= --passes <= " + std::to_string(kMostPasses));
}

}  // namespace

bool parse_options(int argc, char** argv, int world, bool print, Options& options) {
  CLI::App app{"augur-bench-mpi: measure MPI operations into a raw file (run under mpirun; see docs/bench.md)"};
  Overrides o;
  app.add_option("--raw", options.raw, "raw measurements file (JSON Lines); required unless --calibrate");
  app.add_option("--calibrate", options.calibrate,
                 "only time an 8-byte and a large ping-pong and exchange between ranks 0 and 1 (messages of "
                 "--max-size, at most 1 MiB) and write latency and bandwidth as JSON to this file");
  app.add_flag("--resume", options.resume, "continue an interrupted raw file, skipping finished points");
  app.add_flag("--progress", options.progress, "show progress and time left on stderr");
  app.add_option("--machine", options.machine, "machine name for the model (default: host name)");
  app.add_option("--preset", o.preset, "quick, standard or full")->check(CLI::IsMember({"quick", "standard", "full"}));
  auto* ops = app.add_option("--ops", o.operations, "operations to measure, comma-separated (default: all)")
                  ->delimiter(',');
  auto* groups = app.add_option("--groups", o.groups, "group sizes, comma-separated (default: 2,3,4,6,8…,P)")
                     ->delimiter(',');
  auto* max_size = app.add_option("--max-size", o.max_size, "largest message per process, e.g. 1MiB");
  auto* target = app.add_option("--target", o.target, "relative half-width of the median's 95% CI");
  auto* warmup = app.add_option("--warmup", o.warmup, "untimed repetitions before each point");
  auto* min_reps = app.add_option("--min-reps", o.min_reps, "fewest repetitions per point over all passes");
  auto* max_reps = app.add_option("--max-reps", o.max_reps, "most repetitions per point over all passes");
  auto* point = app.add_option("--point-time", o.point_seconds, "most seconds per point after --min-reps");
  auto* budget = app.add_option("--budget", o.budget, "seconds for the whole sweep (0: no limit)");
  auto* refine = app.add_option("--refine", o.refine, "sizes added per curve where it bends (0: none)");
  auto* tolerance = app.add_option("--refine-tolerance", o.refine_tolerance, "relative bend that earns sizes");
  int pass = 1, passes = 1;
  app.add_option("--pass", pass, "which pass this launch makes: 1 measures the plan, later ones repeat the earlier passes' points in the same raw file, and the middle one of --passes adds sizes where curves bend");
  app.add_option("--passes", passes, "passes in the whole run; each gets its share of --budget");
  double pass_budget = 0, stop_after = 0;
  auto* pass_budget_option =
      app.add_option("--pass-budget", pass_budget, "seconds for this pass (instead of its share of --budget)");
  app.add_option("--stop-after", stop_after,
                 "stop measuring after so many seconds of the sweep, leaving the rest to later passes (0: no limit)");
  app.add_option("--run-elapsed", options.run.elapsed, "seconds the whole run had taken when this launch began (progress)");
  app.add_option("--run-budget", options.run.budget, "the whole run's budget in seconds (progress)");
  app.add_option("--run-estimate", options.run.estimate, "the whole run's expected seconds (progress)");
  app.add_flag("--fresh-buffers", options.settings.fresh_buffers, "rotate buffers through memory beyond the caches");
  std::string sync = "window";
  app.add_option("--sync", sync,
                 "how ranks start together: window (agreed instant on synchronised clocks) or barrier")
      ->check(CLI::IsMember({"barrier", "window"}))
      ->capture_default_str();
  bool no_compute = false;
  app.add_flag("--no-compute", no_compute,
               "skip the node kernels (compute step, flop rate, memory bandwidth, cache sweep) on rank 0");
  bool isolated = false;
  app.add_flag("--isolated", isolated,
               "time every collective and pair exchange call on its own "
               "(default: short ones as the mean of a back-to-back sequence)");
  bool keep_preempted = false;
  app.add_flag("--keep-preempted", keep_preempted,
               "keep repetitions during which a process was preempted (always so when oversubscribed)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    if (print) std::cout << app.help();
    return false;
  } catch (const CLI::ParseError& e) {
    throw std::invalid_argument(e.what());
  }

  options.node_kernels = !no_compute;
  const bool fresh = options.settings.fresh_buffers;
  auto& s = options.settings = preset_settings(o.preset);
  s.fresh_buffers = fresh;
  s.discard_preempted = !keep_preempted;
  s.sync = parse_sync(sync);
  s.pass = pass;
  s.passes = passes;
  s.back_to_back = !isolated;
  if (*ops) s.operations = o.operations;
  if (*groups) s.groups = o.groups;
  if (*max_size) s.max_bytes = parse_bytes(o.max_size);
  if (*target) s.target = o.target;
  if (*warmup) s.warmup = o.warmup;
  if (*min_reps) s.min_reps = o.min_reps;
  if (*max_reps) s.max_reps = o.max_reps;
  if (*point) s.point_seconds = o.point_seconds;
  if (*budget) s.budget_seconds = o.budget;
  if (*pass_budget_option) s.budget_seconds = pass_budget * passes;
  s.stop_after_seconds = stop_after;
  if (*refine) s.refine_limit = o.refine;
  if (*tolerance) s.refine_tolerance = o.refine_tolerance;
  if (options.raw.empty() && options.calibrate.empty()) throw std::invalid_argument("--raw is required");
  check(s, world);
  s.min_reps = reps_per_pass(s.min_reps, s.passes);
  s.max_reps = std::max(s.min_reps, reps_per_pass(s.max_reps, s.passes));
  return true;
}

}  // namespace augur::bench
