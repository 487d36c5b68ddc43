// `augur run`: reverse profiling. Runs an unmodified MPI program with libaugur-revprof.so
// preloaded, so every MPI call advances a virtual clock driven by the target machine's model
// while the real communication still happens, then prints the predicted run time and breakdown.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/input_files.hpp"
#include "cli/launch_failure.hpp"
#include "cli/launcher.hpp"
#include "cli/placement_options.hpp"
#include "cli/rank_limits.hpp"
#include "model/machines.hpp"
#include "model/units.hpp"
#include "revprof/compute_scale.hpp"
#include "revprof/report.hpp"
#include "util/write_file.hpp"

namespace augur::cli {
namespace fs = std::filesystem;
namespace {

struct RunRequest {
  std::string machine = "generic";
  std::string bound = "avg";
  std::string compute = "measured";
  double compute_scale = 1.0;
  bool compute_scale_given = false;
  std::string host_model;
  std::string trace_dir;
  std::string wtime = "virtual";
  bool json = false;
  model::RankRows shown = model::RankRows::fit_screen;
  bool measure = false;
  int processes = 0;
  bool np_spelling = false;
  bool oversubscribe = false;
  std::string mpirun = "mpirun";
  std::string report;
  std::vector<std::string> command;
  PlacementRequest placement;  // which node each rank is on, for a machine of nodes (docs/nodes.md)
};

fs::path find_shim() {
  if (const char* set = std::getenv("AUGUR_REVPROF")) return set;
  for (const char* relative : {"../lib/libaugur-revprof.so", "libaugur-revprof.so"}) {
    auto candidate = beside_self(relative);
    if (fs::exists(candidate)) return candidate;
  }
  throw UsageError("libaugur-revprof.so not found beside augur (" + beside_self("../lib").string() +
                   "); build augur with MPI, or set AUGUR_REVPROF to its path");
}

// A built-in name stays a name; a file becomes an absolute path, since ranks may start elsewhere.
std::string model_reference(const std::string& machine) {
  for (const auto& name : model::builtin_machine_names())
    if (name == machine) return machine;
  return fs::absolute(machine).string();
}

void check(const RunRequest& r) {
  if (r.command.empty()) throw UsageError("no program given: augur run [options] -- ./app args");
  if (r.bound != "min" && r.bound != "avg" && r.bound != "max") throw UsageError("--bound must be min, avg or max");
  if (r.compute != "measured" && r.compute != "annotated" && r.compute != "zero")
    throw UsageError("--compute must be measured, annotated or zero");
  if (r.wtime != "virtual" && r.wtime != "real") throw UsageError("--wtime must be virtual or real");
  if (!(r.compute_scale > 0)) throw UsageError("--compute-scale must be > 0");
  if (r.processes < 0) throw UsageError("-np must be at least 1");
}

bool starts_with_launcher(const std::vector<std::string>& command) {
  auto name = fs::path(command.front()).filename().string();
  return name.starts_with("mpirun") || name.starts_with("mpiexec");
}

// Before augur launches -np ranks on this host: refuses a count the host cannot start, notes the
// limits it comes near, and raises the open-file limit the launcher inherits to what it needs.
void check_host_for(const RunRequest& r) {
  if (r.processes == 0 || starts_with_launcher(r.command)) return;
  const auto check = check_ranks(r.processes, read_host_limits());
  if (check.refusal) throw UsageError(*check.refusal);
  for (const auto& note : check.notes) std::cerr << "augur: note: " << note << "\n";
  raise_open_files_for(r.processes);
}

std::vector<std::string> job_command(const RunRequest& r, const std::vector<std::string>& exported) {
  if (starts_with_launcher(r.command) || r.processes == 0) return r.command;
  if (!find_in_path(r.mpirun)) throw UsageError("no '" + r.mpirun + "' in PATH: install Open MPI or MPICH");
  auto argv = mpirun_command(r.mpirun, r.processes, r.oversubscribe, exported);
  argv.insert(argv.end(), r.command.begin(), r.command.end());
  return argv;
}

// --compute-scale as given, else from the host and target models' compute steps.
revprof::ComputeScale compute_scale(const RunRequest& r, const model::Model& target) {
  if (r.compute_scale_given) return {r.compute_scale, model::significant(r.compute_scale) + " (given with --compute-scale)"};
  if (r.host_model.empty()) return revprof::default_compute_scale(nullptr, target);
  const auto host = load_machine_input(r.host_model, "augur run --host-model");
  return revprof::default_compute_scale(&host, target);
}

// A directory of augur's own, removed when the run ends: the shim writes its report there,
// where it surely can, and augur copies it to --report.
class RunDirectory {
 public:
  RunDirectory() {
    std::string pattern = (fs::temp_directory_path() / "augur-run-XXXXXX").string();
    if (!::mkdtemp(pattern.data()))
      throw std::runtime_error(fmt::format("cannot create a directory in {}: {}", fs::temp_directory_path().string(),
                                           std::strerror(errno)));
    path_ = pattern;
  }
  ~RunDirectory() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  RunDirectory(const RunDirectory&) = delete;
  RunDirectory& operator=(const RunDirectory&) = delete;
  fs::path report() const { return path_ / "report.json"; }

 private:
  fs::path path_;
};

using util::write_file;

// --report is checked before the program runs, not found unwritable after it. A report an
// earlier run left there goes, so that a run without one leaves none.
void prepare_report_file(const std::string& path) {
  const bool existed = fs::exists(path);
  std::FILE* f = std::fopen(path.c_str(), "a");
  if (!f) throw UsageError(fmt::format("cannot write the report to {}: {}", path, std::strerror(errno)));
  std::fclose(f);
  std::error_code ignored;
  if (!existed || fs::is_regular_file(path)) fs::remove(path, ignored);
}

struct Ending {
  int exit_status = 0;  // the program's own, as a shell would give it
  bool failed = false;
  std::string how;      // "status 3", "killed by signal 9"
};

Ending ending_of(int wait_status) {
  if (WIFEXITED(wait_status))
    return {WEXITSTATUS(wait_status), WEXITSTATUS(wait_status) != 0, "status " + std::to_string(WEXITSTATUS(wait_status))};
  const int signal = WIFSIGNALED(wait_status) ? WTERMSIG(wait_status) : 0;
  return {128 + signal, true, "killed by signal " + std::to_string(signal)};
}

// Why the run has no report: the launcher's own failure to start the ranks when what it printed
// says so, else from what rank 0 left in the report file (revprof::ReportState): augur's own
// error, or, when the program failed or never used MPI, the program's status.
[[noreturn]] void no_report(const fs::path& file, const Ending& end, const std::string& command,
                            const std::optional<std::string>& launch_failed) {
  if (launch_failed && end.failed) throw ProgramFailed(*launch_failed + ": " + command, end.exit_status);
  if (!fs::exists(file)) {
    // Not an error of augur's: a program that skips its work without MPI (a test that does not
    // apply here) ends as it would alone.
    throw ProgramFailed(fmt::format("note: the program never called MPI_Init, so nothing was predicted (it ended "
                                    "with {}): {}",
                                    end.how, command),
                        end.exit_status);
  }
  std::ifstream in(file);
  const auto left = nlohmann::json::parse(in, nullptr, false);
  std::string what;
  if (revprof::report_state(left) == revprof::ReportState::unwritten)
    what = fmt::format("the program ended ({}) but its report could not be written: {}", end.how,
                       left.value("reason", "no reason given"));
  else
    what = fmt::format("the program called MPI_Init but ended ({}) before MPI_Finalize, where the report is written",
                       end.how);
  if (end.failed) throw ProgramFailed(what + ": " + command, end.exit_status);
  throw std::runtime_error(what + ": " + command);
}

// The report as the shim wrote it, with where the compute scale came from; nothing when the
// file holds no report.
std::optional<nlohmann::json> read_report(const fs::path& file, const revprof::ComputeScale& scale) {
  std::ifstream in(file);
  if (!in) return std::nullopt;
  auto report = nlohmann::json::parse(in, nullptr, false);
  if (report.is_discarded()) throw std::runtime_error(fmt::format("the report in {} is not JSON", file.string()));
  if (revprof::report_state(report) != revprof::ReportState::report) return std::nullopt;
  report["run"]["compute_scale_from"] = scale.reason;
  return report;
}

LaunchContext launch_context(const RunRequest& r, bool reported) {
  const bool launched = r.processes > 0 && !starts_with_launcher(r.command);
  return {launched ? r.processes : 0, r.oversubscribe,
          static_cast<int>(std::max(1u, std::thread::hardware_concurrency())), reported};
}

void run(RunRequest r) {
  check(r);
  check_host_for(r);
  const auto shim = find_shim();
  // Loading checks both models before the program starts.
  const auto scale = compute_scale(r, load_machine_input(r.machine, "augur run --machine"));
  const auto model = model_reference(r.machine);
  make_placement(r.placement, std::max(r.processes, 1));  // a bad one refused here, before the program starts
  if (r.placement.placement != "block" && r.placement.placement != "cyclic")
    r.placement.placement = fs::absolute(r.placement.placement).string();
  if (!r.report.empty()) prepare_report_file(r.report);
  const RunDirectory directory;
  if (!r.trace_dir.empty()) r.trace_dir = fs::absolute(r.trace_dir).string();
  const std::vector<std::pair<std::string, std::string>> env{
      {"LD_PRELOAD", shim.string()}, {"AUGUR_MODEL", model},           {"AUGUR_BOUND", r.bound},
      {"AUGUR_COMPUTE", r.compute},  {"AUGUR_COMPUTE_SCALE", fmt::format("{:.17g}", scale.factor)},
      {"AUGUR_TRACE", r.trace_dir},  {"AUGUR_WTIME", r.wtime},         {"AUGUR_REPORT", directory.report().string()},
      {"AUGUR_MEASURE", r.measure ? "1" : "0"},
      {"AUGUR_RANKS_PER_NODE", std::to_string(r.placement.ranks_per_node)},
      {"AUGUR_PLACEMENT", r.placement.placement}};
  std::vector<std::string> exported;
  for (const auto& [name, value] : env) {
    setenv(name.c_str(), value.c_str(), 1);
    exported.push_back(name);
  }
  const auto argv = job_command(r, exported);
  const auto finished = run_and_watch(argv);
  const Ending end = ending_of(finished.wait_status);
  unsetenv("LD_PRELOAD");
  const auto report = read_report(directory.report(), scale);
  if (!report)
    no_report(directory.report(), end, shell_words(argv), launch_failure(finished.error_tail, launch_context(r, false)));
  const std::string text = report->dump(2) + "\n";
  if (r.json) std::cout << text;
  else std::cout << revprof::format_report(*report, r.shown);
  if (!r.trace_dir.empty() && !r.json) std::cout << "\nTrace: " << r.trace_dir << "\n";
  if (!r.report.empty())
    if (auto error = write_file(r.report, text))
      throw std::runtime_error(fmt::format("cannot write the report to {}: {}", r.report, *error));
  if (end.failed) {
    // The report is whole, but a launcher that then failed says why in its own words.
    const auto launcher = launch_failure(finished.error_tail, launch_context(r, true));
    throw ProgramFailed((launcher ? "the run was predicted in full, but " + *launcher : "the program failed (" + end.how + ")") +
                            ": " + shell_words(argv),
                        end.exit_status);
  }
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto r = std::make_shared<RunRequest>();
  auto* cmd = app.add_subcommand("run", "Predict an MPI program's run time on a modelled machine by running it here");
  cmd->footer(
      "The program runs for real, unmodified, with its MPI calls intercepted (PMPI): each rank keeps\n"
      "three virtual clocks that the target machine's model advances at its min, avg and max bounds,\n"
      "from the same measured compute (times the model's compute states, fast on min and slow on\n"
      "max, when it has them), so one run reports the time it would take there as AVG (MIN … MAX)\n"
      "and how much of that band is compute and how much communication. --bound chooses the clock\n"
      "the program's MPI_Wtime returns and the report's tables and the trace's timeline follow.\n"
      "Examples:\n"
      "  augur run --machine sp2-mpl -np 4 -- ./stencil 512\n"
      "  augur run --machine model.json --compute annotated --trace trace/ -- mpirun -np 2 ./app\n"
      "Compute between MPI calls: measured (this host's CPU time x --compute-scale), annotated (only\n"
      "augur_compute() calls from augur/annotate.h) or zero.\n"
      "--compute-scale defaults to the target model's compute.seconds_per_step divided by the host\n"
      "model's (--host-model, e.g. this machine's model from augur bench) when both models have one,\n"
      "and to 1 otherwise; the report says which.");
  cmd->add_option("-m,--machine", r->machine, "target: built-in machine name or model file")->capture_default_str();
  cmd->add_option("--bound", r->bound, "the clock of MPI_Wtime, the tables and the timeline: min, avg or max")->capture_default_str();
  cmd->add_option("--compute", r->compute, "measured, annotated or zero")->capture_default_str();
  auto* scale = cmd->add_option("--compute-scale", r->compute_scale,
                                "target seconds per host CPU second (default: target step / host step, else 1)");
  cmd->add_option("--host-model", r->host_model,
                  "model of this machine (file or built-in name), for the default --compute-scale");
  cmd->add_option("--trace", r->trace_dir, "write the predicted trace (one file per rank) to this directory");
  cmd->add_option("--wtime", r->wtime, "what MPI_Wtime returns: virtual or real")->capture_default_str();
  // "-np N" reads in CLI11 as the flags -n and -p; -p carries the count, -n is accepted.
  cmd->add_option("-p,--np", r->processes, "processes: augur starts mpirun -np N (else the command runs as given)");
  cmd->add_flag("-n", r->np_spelling)->group("");
  cmd->add_flag("--oversubscribe", r->oversubscribe, "allow more processes than cores (Open MPI); the prediction is unchanged, as compute is CPU time");
  cmd->add_option("--mpirun", r->mpirun, "the MPI launcher")->capture_default_str();
  cmd->add_option("--report", r->report, "also keep the JSON report in this file");
  cmd->add_flag("--json", r->json, "print the report as JSON");
  add_placement_options(*cmd, r->placement);
  add_ranks_table_flag(cmd, r->shown);
  cmd->add_flag("--measure", r->measure,
                "record the real run instead of predicting: the same report and trace format, in real time, "
                "to compare with a prediction (augur compare)");
  cmd->add_option("command", r->command, "the program and its arguments, after --")->required();
  cmd->callback([r, scale] {
    r->compute_scale_given = scale->count() > 0;
    run(*r);
  });
}

}  // namespace augur::cli
