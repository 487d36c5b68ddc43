// `augur bench`'s options checked before anything runs (cli/bench_request.hpp).
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli/bench_request.hpp"

#include "bench/operation_table.hpp"
#include "bench/settings.hpp"
#include "cli/commands.hpp"
#include "cli/launcher.hpp"
#include "util/duration.hpp"
#include "util/size.hpp"
#include "sim/network/topologies.hpp"

namespace augur::cli {

namespace fs = std::filesystem;

double parse_duration(const std::string& text) {
  // "600", "90s", "10m", "1h", "1h30m": a sum of numbers with optional h/m/s units.
  std::istringstream in(text);
  double total = 0;
  bool any = false;
  while (in.peek() != EOF) {
    double value = 0;
    if (!(in >> value) || value < 0) throw UsageError("--budget '" + text + "': write seconds or e.g. 90s, 10m, 1h30m");
    const int unit = in.peek();
    const double scale = unit == 'h' ? 3600 : unit == 'm' ? 60 : 1;
    if (unit == 'h' || unit == 'm' || unit == 's') in.get();
    total += value * scale;
    any = true;
  }
  if (!any || total <= 0) throw UsageError("--budget '" + text + "' must be a positive duration (90s, 10m, 1h)");
  return total;
}

// --assume-latency and --assume-bandwidth read as the simulator reads a machine's links.
double parse_latency(const std::string& text) {
  const auto seconds = util::parse_seconds(text);
  if (!seconds || !(*seconds > 0))
    throw UsageError("--assume-latency '" + text + "': write a positive time, e.g. 800ns, 50us, 1ms");
  return *seconds;
}

double parse_bandwidth(const std::string& text) {
  try {
    return sim::parse_bandwidth(text);
  } catch (const std::invalid_argument&) {
    throw UsageError("--assume-bandwidth '" + text + "': write a positive rate, e.g. 125MB/s, 1Gbit/s, 5GB/s");
  }
}

namespace {

std::string known_operations() {
  std::string names;
  for (const auto& shape : bench::kOperations) names += (names.empty() ? "" : " ") + std::string(shape.name);
  return names;
}

void check_operations(const std::vector<std::string>& operations) {
  for (const auto& name : operations)
    if (!bench::find_operation_shape(name))
      throw UsageError("unknown operation '" + name + "'; augur bench measures: " + known_operations());
}

}  // namespace

std::uint64_t check_max_size(const std::string& text, int processes) {
  double bytes = 0;
  try {
    bytes = util::parse_size(text, bench::kIntBytes);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--max-size: ") + e.what());
  }
  if (bytes != std::floor(bytes) || bytes < 1)
    throw UsageError("--max-size " + text + " must be a whole number of bytes >= 1");
  if (bytes * processes > double(INT_MAX))
    throw UsageError("--max-size " + text + " times " + std::to_string(processes) +
                     " processes exceeds what one MPI call can address (2 GiB); choose a smaller size");
  return static_cast<std::uint64_t>(bytes);
}

namespace {

std::optional<std::string> enclosing_mpi_job() {
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(variable)) return std::string(variable);
  return std::nullopt;
}

}  // namespace

// The MPI program: $AUGUR_BENCH_MPI, or augur-bench-mpi next to this executable.
fs::path find_bench_program() {
  if (const char* set = std::getenv("AUGUR_BENCH_MPI")) {
    if (access(set, X_OK) != 0) throw UsageError(std::string("AUGUR_BENCH_MPI=") + set + " is not an executable");
    return set;
  }
  const fs::path beside = beside_self("augur-bench-mpi");
  if (access(beside.c_str(), X_OK) != 0)
    throw UsageError("augur-bench-mpi not found next to augur (" + beside.string() +
                     "); build augur with MPI, or set AUGUR_BENCH_MPI to its path");
  return beside;
}

namespace {

// Processes this machine (or batch allocation) can run without oversubscribing.
int available_slots() {
  for (const char* variable : {"SLURM_NTASKS", "PBS_NP", "NSLOTS"})
    if (const char* value = std::getenv(variable)) return std::atoi(value);
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

// The launcher's arguments place the ranks on hosts of their own (a hostfile, a host list), whose
// slots the launcher counts: this host's processors do not bound -np.
bool names_hosts(const BenchRequest& r) {
  auto host_option = [](const std::string& word) {
    for (const char* option : {"--hostfile", "-hostfile", "--machinefile", "-machinefile", "--host", "-host", "-H",
                               "-f", "-hosts"})
      if (word == option || word.starts_with(std::string(option) + "=")) return true;
    return false;
  };
  for (const auto& text : r.mpirun_args) {
    std::istringstream words(text);
    for (std::string word; words >> word;)
      if (host_option(word)) return true;
  }
  return std::any_of(r.launcher_tail.begin(), r.launcher_tail.end(), host_option);
}

std::string short_host_name() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  std::string host = name;
  return host.substr(0, host.find('.'));
}

void fill_defaults(BenchRequest& r) {
  if (r.output.empty()) r.output = (r.machine.empty() ? short_host_name() : r.machine) + ".json";
  if (r.raw.empty()) r.raw = fs::path(r.output).replace_extension(".raw.jsonl").string();
}

}  // namespace

void check_request(BenchRequest& r) {
  if (r.processes < 2) throw UsageError("-np must be at least 2 (got " + std::to_string(r.processes) + ")");
  r.passes = r.chosen_passes.value_or(bench::preset_passes(preset_name(r)));
  if (r.passes < 1 || r.passes > bench::kMostPasses)
    throw UsageError("--passes must be 1 to " + std::to_string(bench::kMostPasses) + " (got " + std::to_string(r.passes) + ")");
  if (r.quick && r.full) throw UsageError("--quick and --full exclude each other");
  check_operations(r.operations);
  if (!r.max_size.empty()) check_max_size(r.max_size, r.processes);
  if (!r.budget.empty()) parse_duration(r.budget);
  parse_latency(r.assume_latency);
  parse_bandwidth(r.assume_bandwidth);
  if (auto variable = enclosing_mpi_job())
    throw UsageError("augur bench is running inside an MPI job (" + *variable +
                     " is set). Inside a job, run the MPI program directly:\n  mpirun -np N augur-bench-mpi --raw raw.jsonl"
                     " [--preset quick|full] [--ops …]\nthen: augur fit raw.jsonl -o model.json (docs/bench.md)");
  if (!find_in_path(r.mpirun))
    throw UsageError("no '" + r.mpirun + "' in PATH: install Open MPI or MPICH, or name the launcher with --mpirun");
  const int slots = available_slots();
  if (r.processes > slots && !r.oversubscribe && !names_hosts(r))
    throw UsageError("-np " + std::to_string(r.processes) + " is more than the " + std::to_string(slots) +
                     " processors available; add --oversubscribe to run anyway (timings will share processors)");
  fill_defaults(r);
  const bool raw_exists = fs::exists(r.raw);
  if (r.resume && !raw_exists) throw UsageError("--resume: " + r.raw + " does not exist, nothing to continue");
  if (!r.resume && raw_exists && !r.overwrite && !r.dry_run)
    throw UsageError(r.raw + " exists: add --resume to continue it, or --overwrite to measure afresh");
}

}  // namespace augur::cli
