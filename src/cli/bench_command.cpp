// `augur bench`: characterise this machine's MPI into a model file. Checks every option first,
// runs augur-bench-mpi under mpirun (docs/bench.md), then fits the raw measurements.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "bench/budget.hpp"
#include "bench/operation_table.hpp"
#include "bench/plan.hpp"
#include "bench/progress.hpp"
#include "bench/settings.hpp"
#include "util/size.hpp"
#include "cli/bench_request.hpp"
#include "cli/commands.hpp"
#include "sim/network/topologies.hpp"
#include "util/duration.hpp"
#include "cli/launcher.hpp"
#include "fit/fitter.hpp"
#include "fit/provenance.hpp"
#include "fit/machine_state.hpp"
#include "fit/raw.hpp"
#include "model/model_json.hpp"
#include "model/state_choice.hpp"
#include "model/units.hpp"

namespace augur::cli {
namespace {

namespace fs = std::filesystem;

// ---- running the MPI program ------------------------------------------------------------------

std::string shell_number(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

// What one launch is told beyond the request: its pass, the passes and the sizes the plan chose,
// its share of the budget and the whole run's clock for the progress line.
struct Launch {
  int pass = 1, passes = 1;
  std::uint64_t max_bytes = 0;
  std::vector<int> groups;
  int min_reps = 0, max_reps = 0;          // over all passes; 0: the preset's
  double pass_budget = 0, stop_after = 0;  // seconds; 0: none
  bool refine = true;                      // false: a pass before added the sizes where curves bend
  bench::RunClock run;
};

std::string comma_list(const auto& items) {
  std::string list;
  for (const auto& item : items) list += (list.empty() ? "" : ",") + fmt::format("{}", item);
  return list;
}

// mpirun -np N, its own flags, then what --mpirun-args adds, split at white space, and the
// words after --.
std::vector<std::string> launcher_words(const BenchRequest& r) {
  auto argv = mpirun_command(r.mpirun, r.processes, r.oversubscribe);
  for (const auto& text : r.mpirun_args) {
    std::istringstream words(text);
    for (std::string word; words >> word;) argv.push_back(word);
  }
  argv.insert(argv.end(), r.launcher_tail.begin(), r.launcher_tail.end());
  return argv;
}

std::vector<std::string> launch_command(const BenchRequest& r, const fs::path& program, const Launch& launch) {
  auto argv = launcher_words(r);
  argv.insert(argv.end(), {program.string(), "--raw", r.raw, "--preset", std::string(preset_name(r))});
  if (launch.passes > 1)
    argv.insert(argv.end(), {"--pass", std::to_string(launch.pass), "--passes", std::to_string(launch.passes)});
  if (!r.operations.empty()) argv.insert(argv.end(), {"--ops", comma_list(r.operations)});
  if (launch.max_bytes > 0) argv.insert(argv.end(), {"--max-size", std::to_string(launch.max_bytes)});
  if (!launch.groups.empty()) argv.insert(argv.end(), {"--groups", comma_list(launch.groups)});
  if (launch.min_reps > 0)
    argv.insert(argv.end(), {"--min-reps", std::to_string(launch.min_reps), "--max-reps", std::to_string(launch.max_reps)});
  if (launch.pass_budget > 0) argv.insert(argv.end(), {"--pass-budget", shell_number(launch.pass_budget)});
  if (!launch.refine) argv.insert(argv.end(), {"--refine", "0"});
  if (launch.stop_after > 0) argv.insert(argv.end(), {"--stop-after", shell_number(launch.stop_after)});
  if (!r.machine.empty()) argv.insert(argv.end(), {"--machine", r.machine});
  if (r.resume) argv.push_back("--resume");
  if (r.fresh_buffers) argv.push_back("--fresh-buffers");
  argv.insert(argv.end(), {"--sync", r.sync});
  if (r.isolated) argv.push_back("--isolated");
  if (r.no_compute) argv.push_back("--no-compute");
  if (!r.quiet && isatty(STDERR_FILENO)) {
    argv.push_back("--progress");
    if (launch.run.budget > 0)
      argv.insert(argv.end(), {"--run-elapsed", shell_number(launch.run.elapsed), "--run-estimate",
                               shell_number(launch.run.estimate), "--run-budget", shell_number(launch.run.budget)});
  }
  return argv;
}

std::size_t finished_points(const std::string& raw) {
  try {
    return fit::read_raw_file(raw, /*tolerate_truncated_tail=*/true).points.size();
  } catch (const std::exception&) {
    return 0;
  }
}

std::string describe_compute(const model::Compute& c) {
  using model::format_bytes, model::format_seconds, model::significant;
  std::string text = "compute step " + format_seconds(c.seconds_per_step);
  if (c.flops > 0) text += ", " + significant(c.flops * 1e-9, 3) + " Gflop/s";
  if (c.memory_bandwidth > 0) text += ", memory " + significant(c.memory_bandwidth * 1e-9, 3) + " GB/s";
  if (!c.cache_sweep.empty())
    text += fmt::format(", loads {} at {} to {} at {}", format_seconds(c.cache_sweep.front().seconds_per_access),
                        format_bytes(c.cache_sweep.front().bytes), format_seconds(c.cache_sweep.back().seconds_per_access),
                        format_bytes(c.cache_sweep.back().bytes));
  if (c.states)
    text += fmt::format(", compute states {} … {} of a measured step", significant(c.states->fast, 3),
                        significant(c.states->slow, 3));
  return text;
}

// `budget`: what the budget left out (budget.hpp), recorded in the model; null without one.
void fit_and_save(const BenchRequest& r, const nlohmann::json& budget) {
  const auto raw = fit::read_raw_file(r.raw);
  fit::FitOptions options;
  options.state = *model::state_choice_from_string(r.state);
  auto [model, states] = fit::fit_model(raw, options);
  if (!budget.is_null()) model.provenance.settings["budget"] = budget;
  if (const auto launch = budget.is_object() ? budget.value("calibration", nlohmann::json::object()).value("launch_seconds", -1.0) : -1.0;
      launch >= 0)
    model.launch = model::Launch{launch, r.processes};
  model::save_model_file(model, r.output);
  std::cout << "augur bench: " << raw.points.size() << " points in " << r.raw << "; model of "
            << model.operations.size() << " operations written to " << r.output << "\n";
  if (const auto sentence = fit::states_summary(states, options.state); !sentence.empty())
    std::cout << "augur bench: " << sentence << "\n";
  if (model.compute.knows_step()) std::cout << "augur bench: node: " << describe_compute(model.compute) << "\n";
  if (const auto sentence = fit::unmeasurable_summary(model.provenance); !sentence.empty())
    std::cout << "augur bench: " << sentence << "; the model leaves them out\n";
}

void run_pass(const BenchRequest& r, const std::vector<std::string>& argv) {
  const int status = run_and_wait(argv);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 2)
    throw UsageError("augur-bench-mpi rejected its options (message above)");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    const std::string how = WIFSIGNALED(status) ? "was stopped by signal " + std::to_string(WTERMSIG(status))
                                                : "failed with status " + std::to_string(WEXITSTATUS(status));
    throw std::runtime_error("the measurement " + how + "; " + r.raw + " holds " +
                             std::to_string(finished_points(r.raw)) +
                             " finished points. Run the same command with --resume to continue.");
  }
}

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

double budget_seconds(const BenchRequest& r) {
  return r.budget.empty() ? bench::preset_settings(preset_name(r)).budget_seconds : parse_duration(r.budget);
}

// The node kernels in the first pass (docs/bench.md: about 1 s with --quick, 3 s otherwise), with
// room for a busy machine.
double kernel_seconds(const BenchRequest& r) { return r.no_compute ? 0 : r.quick ? 2 : 5; }

// What the run would measure with no budget: the preset, with the options that change it.
bench::BudgetRequest budget_request(const BenchRequest& r) {
  auto settings = bench::preset_settings(preset_name(r));
  settings.operations = r.operations;
  bench::BudgetRequest request;
  request.budget_seconds = budget_seconds(r);
  request.operations = bench::selected_operations(settings);
  request.groups = bench::group_sizes(r.processes);
  request.max_bytes = r.max_size.empty() ? settings.max_bytes : check_max_size(r.max_size, r.processes);
  request.passes = r.passes;
  request.warmup = settings.warmup;
  request.min_reps = settings.min_reps;
  request.max_reps = settings.max_reps;
  request.kernel_seconds = kernel_seconds(r);
  return request;
}

// What the calibration found of the nodes: on several, the sweep measures each group at its
// placements over them, and the plan counts those points.
bench::Nodes found_nodes(const BenchRequest& r, const nlohmann::json& measured) {
  const bench::Nodes machine{measured.value("nodes", 1), measured.value("ranks_per_node", r.processes)};
  if (!machine.several() || r.quiet) return machine;
  std::string names;
  for (const auto& name : measured.value("node_names", std::vector<std::string>{}))
    names += (names.empty() ? "" : ", ") + name;
  std::cerr << "augur bench: " << machine.nodes << " nodes (" << names << "), at least " << machine.ranks_per_node
            << " ranks a node: pairs on one node and between nodes, groups at placements over them\n";
  return machine;
}

// The calibration launch: the network as ranks 0 and 1 see it (on several nodes, rank 0 and the
// second node's first rank), what the launch itself cost, and the nodes it found (`machine`).
bench::Calibration calibrate(const BenchRequest& r, const fs::path& program, std::uint64_t max_bytes,
                             bench::Nodes& machine) {
  const fs::path out = r.raw + ".calibration.json";
  auto argv = launcher_words(r);
  argv.insert(argv.end(), {program.string(), "--calibrate", out.string(), "--max-size", std::to_string(max_bytes)});
  if (!r.quiet) std::cerr << "augur bench: calibrating: " << shell_words(argv) << "\n";
  const auto start = Clock::now();
  const int status = run_and_wait(argv);
  const double wall = seconds_since(start);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fs::remove(out);
    throw std::runtime_error("the calibration launch failed (status " + std::to_string(status) + "; message above)");
  }
  std::ifstream file(out);
  const auto measured = nlohmann::json::parse(file, nullptr, false);
  file.close();
  fs::remove(out);
  if (!measured.is_object() || !measured.contains("latency") || !measured.contains("bandwidth"))
    throw std::runtime_error("the calibration launch wrote no result to " + out.string());
  bench::Calibration calibration{measured.at("latency").get<double>(), measured.at("bandwidth").get<double>(),
                                 std::max(0.0, wall - measured.value("seconds", 0.0)), {}};
  for (const auto& point : measured.value("messages", nlohmann::json::array()))
    calibration.messages.emplace_back(point.at(0).get<double>(), point.at(1).get<double>());
  machine = found_nodes(r, measured);
  return calibration;
}

void print_plan(const BenchRequest& r, const bench::BudgetPlan& plan, const bench::BudgetRequest& request,
                const bench::Calibration& calibration) {
  if (r.quiet && !r.dry_run) return;
  for (const auto& line : bench::describe_plan(plan, request, calibration)) std::cout << "augur bench: " << line << "\n";
  std::cout.flush();
}

void run_pass_or_print(const BenchRequest& r, const std::vector<std::string>& argv, const Launch& launch) {
  if (r.dry_run) {
    std::cout << shell_words(argv) << "\n";
    return;
  }
  if (!r.quiet && launch.passes > 1) std::cerr << fmt::format("augur bench: pass {} of {}\n", launch.pass, launch.passes);
  if (!r.quiet) std::cerr << "augur bench: " << shell_words(argv) << "\n";
  run_pass(r, argv);
}

// A resumed run finishes the plan its raw file's first pass recorded, without a budget: sizes,
// groups and passes come from the header (docs/bench.md, "Interrupting and resuming").
void resume_bench(const BenchRequest& r, const fs::path& program) {
  const auto header = fit::read_raw_file(r.raw, /*tolerate_truncated_tail=*/true).header;
  const auto settings = header.value("settings", nlohmann::json::object());
  Launch launch;
  launch.passes = settings.value("passes", r.passes);
  launch.max_bytes = settings.value("max_bytes", std::uint64_t{0});
  launch.groups = settings.value("groups", std::vector<int>{});
  for (launch.pass = 1; launch.pass <= launch.passes; ++launch.pass)
    run_pass_or_print(r, launch_command(r, program, launch), launch);
  if (!r.dry_run) fit_and_save(r, nullptr);
}

// Each pass is a launch of its own: on this kind of machine a launch can land in a faster or
// slower state that lasts until it ends, and the passes should not all share one. After each
// pass the run counts the passes that still fit the budget by the time the last one took (more
// than planned when the plan's estimate was high), and gives each launch a limit past which it
// leaves its remaining points to the others. The middle pass of the count at its launch adds
// sizes where curves bend; a count that grows later must not make a second one do so.
void run_bench(BenchRequest r) {
  check_request(r);
  const auto program = find_bench_program();
  if (r.resume) return resume_bench(r, program);
  const auto start = Clock::now();
  auto request = budget_request(r);
  const auto calibration = r.dry_run ? bench::Calibration{parse_latency(r.assume_latency),
                                                          parse_bandwidth(r.assume_bandwidth), 1.0, {}}
                                     : calibrate(r, program, request.max_bytes, request.machine);
  request.spent_seconds = seconds_since(start);
  const auto plan = bench::plan_budget(calibration, request);
  if (r.dry_run)
    std::cout << "augur bench: a dry run calibrates nothing; it assumes " << r.assume_latency << " one way, "
              << r.assume_bandwidth << " and a launch of 1s (--assume-latency, --assume-bandwidth)\n";
  print_plan(r, plan, request, calibration);

  const double points =
      double(bench::base_plan(request.operations, plan.groups, plan.max_bytes, request.machine).size());
  Launch launch;
  launch.passes = plan.passes;
  launch.max_bytes = plan.max_bytes;
  launch.groups = plan.groups;
  double last_pass = 0;
  int made = 0;
  std::size_t first_pass_points = 0;  // the points the first pass measured: fewer when it ran out of time
  bool refined = false;
  for (; launch.pass <= launch.passes; ++launch.pass) {
    const double now = r.dry_run ? request.spent_seconds + (launch.pass - 1) * plan.pass_seconds : seconds_since(start);
    const double left = request.budget_seconds - now - bench::fit_seconds(points * launch.passes);
    if (launch.pass > 1 && !r.dry_run) {
      launch.passes = bench::passes_that_fit(plan.passes, r.passes, made, last_pass, left);
      if (launch.pass > launch.passes) break;
    }
    const int passes_left = launch.passes - launch.pass + 1;
    launch.min_reps = plan.reps_per_pass * launch.passes;
    launch.max_reps = plan.max_reps_per_pass * launch.passes;
    launch.pass_budget = std::max(0.1, left * 0.92 / passes_left - calibration.launch_seconds);
    launch.stop_after = std::max(1.0, left - calibration.launch_seconds);
    launch.run = {now, now + passes_left * std::max(last_pass, plan.pass_seconds), request.budget_seconds};
    launch.refine = !refined;
    const auto pass_start = Clock::now();
    run_pass_or_print(r, launch_command(r, program, launch), launch);
    refined = refined || launch.pass == bench::refinement_pass(launch.passes);
    last_pass = seconds_since(pass_start);
    if (++made == 1 && !r.dry_run) first_pass_points = finished_points(r.raw);
  }
  if (r.dry_run) return;
  auto record = bench::left_out_record(plan, request, made);
  record["calibration"] = {{"latency", calibration.latency},
                           {"bandwidth", calibration.bandwidth},
                           {"messages", calibration.messages},
                           {"launch_seconds", calibration.launch_seconds}};
  record["measuring_seconds"] = seconds_since(start);
  record["planned_points"] = points;
  record["first_pass_points"] = first_pass_points;
  fit_and_save(r, record);
  if (!r.quiet)
    std::cout << fmt::format("augur bench: {} of the {} budget, {} of {} passes\n", bench::format_duration(seconds_since(start)),
                             bench::format_duration(request.budget_seconds), made, r.passes);
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto r = std::make_shared<BenchRequest>();
  auto* cmd = app.add_subcommand(
      "bench", "Measure this machine's MPI operations with mpirun and fit them into a model file (docs/bench.md)");
  // mpirun spells the process count "-np N"; CLI11 reads "-np" as the flags -n and -p, so -p
  // carries the count and -n is accepted and ignored.
  cmd->add_option("-p,--np", r->processes, "number of MPI processes (also written -np N)")->required();
  cmd->add_flag("-n", r->np_spelling)->group("");
  cmd->add_option("-o,--output", r->output, "model file to write (default: HOST.json)");
  cmd->add_option("--raw", r->raw, "raw measurements file (default: the model file's name with .raw.jsonl)");
  cmd->add_flag("--quick", r->quick, "a short sweep (at most about 3 minutes on two processes)");
  cmd->add_flag("--full", r->full, "a thorough sweep (at most about 20 minutes on two processes)");
  cmd->add_option("--budget", r->budget,
                  fmt::format("time for the whole run, e.g. 90s, 10m, 1h (default: {} with --quick, {} standard, {} "
                              "with --full); a calibration plans passes, sizes and groups to fit",
                              bench::format_duration(bench::preset_settings("quick").budget_seconds),
                              bench::format_duration(bench::preset_settings("standard").budget_seconds),
                              bench::format_duration(bench::preset_settings("full").budget_seconds)));
  cmd->add_flag("--oversubscribe", r->oversubscribe, "allow more processes than processors");
  cmd->add_option("--ops", r->operations, "operations to measure, comma-separated (default: all)")->delimiter(',');
  cmd->add_option("--max-size", r->max_size, "largest message per process, e.g. 1MiB");
  cmd->add_flag("--resume", r->resume, "continue an interrupted run from its raw file");
  cmd->add_flag("--overwrite", r->overwrite, "replace an existing raw file");
  cmd->add_flag("--fresh-buffers", r->fresh_buffers, "send from buffers that are not in the caches");
  cmd->add_option("--sync", r->sync,
                  "how the processes start each repetition together: window (an agreed instant on clocks "
                  "synchronised by ping-pong, as ReproMPI) or barrier (as the seed's rawtiming)")
      ->check(CLI::IsMember({"window", "barrier"}))
      ->capture_default_str();
  cmd->add_flag("--no-compute", r->no_compute,
                "skip the node kernels that fill the model's compute section (a few seconds on rank 0)");
  cmd->add_flag("--isolated", r->isolated,
                "time every collective and pair exchange call on its own; by default those of 50 us or less "
                "are timed as the mean of up to 64 back-to-back calls, as programs call them in loops");
  cmd->add_option("--passes", r->chosen_passes,
                  fmt::format("sweeps over the plan, each a launch of its own; the model pools each point's "
                              "passes, so a slow spell of a shared machine hits some passes, not the result (default: {} with "
                              "--quick, {} standard, {} with --full)",
                              bench::preset_passes("quick"), bench::preset_passes("standard"),
                              bench::preset_passes("full")));
  cmd->add_option("--state", r->state,
                  "which passes of a point the model pools when the machine jumped between states: typical "
                  "(all, as programs meet them) or reference (the machine at its best: short messages scaled to the fastest probes, others the faster half; docs/fitting.md)")
      ->check(CLI::IsMember({"typical", "reference"}))
      ->capture_default_str();
  cmd->add_option("--machine", r->machine, "machine name in the model (default: host name)");
  cmd->add_option("--mpirun", r->mpirun, "the MPI launcher (default: mpirun)");
  cmd->add_option("--mpirun-args", r->mpirun_args,
                  "arguments for the launcher, split at spaces, before the program: e.g. \"--mca btl tcp,self\" "
                  "or \"--hostfile hosts\"; a single word needs =, as --mpirun-args=--oversubscribe (may be given "
                  "more than once)")
      ->allow_extra_args(false);
  cmd->add_option("launcher-args", r->launcher_tail, "arguments for the launcher, after --: augur bench -np 2 -- --mca btl tcp,self");
  cmd->add_flag("--dry-run", r->dry_run,
                "check the options and print the plan and the mpirun commands without running them; the plan "
                "assumes --assume-latency and --assume-bandwidth instead of calibrating");
  cmd->add_option("--assume-latency", r->assume_latency, "what --dry-run plans with: one-way time of a small message")
      ->capture_default_str();
  cmd->add_option("--assume-bandwidth", r->assume_bandwidth, "what --dry-run plans with: bandwidth of large messages")
      ->capture_default_str();
  cmd->add_flag("-q,--quiet", r->quiet, "no progress display");
  cmd->callback([r] { run_bench(*r); });
}

}  // namespace augur::cli
