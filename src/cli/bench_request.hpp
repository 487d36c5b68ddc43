#pragma once
// `augur bench`'s request: its options as given, and the checks made of them all before anything
// runs (bench_command.cpp runs it).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace augur::cli {

struct BenchRequest {
  int processes = 0;
  bool np_spelling = false;  // the "n" of "-np", see add_bench_command
  std::string output;
  std::string raw;
  bool quick = false, full = false;
  std::string budget;
  bool oversubscribe = false;
  std::vector<std::string> operations;
  std::string max_size;
  bool resume = false, overwrite = false, quiet = false, fresh_buffers = false, dry_run = false;
  bool no_compute = false;
  std::string machine;
  std::string mpirun = "mpirun";
  std::vector<std::string> mpirun_args;     // --mpirun-args, each split into words
  std::vector<std::string> launcher_tail;   // the words after --
  std::string sync = "window";
  bool isolated = false;
  std::optional<int> chosen_passes;  // --passes, when given
  int passes = 0;                    // what the run does: --passes, or the preset's
  std::string state = "reference";   // which passes the fit pools (docs/fitting.md, "Machine states")
  std::string assume_latency = "1us", assume_bandwidth = "5GB/s";  // what --dry-run plans with
};

inline std::string_view preset_name(const BenchRequest& r) { return r.full ? "full" : r.quick ? "quick" : "standard"; }

// Every option checked, and the defaults that depend on others (the output's names, the passes)
// filled in; throws UsageError naming the option.
void check_request(BenchRequest& r);
// The MPI program: $AUGUR_BENCH_MPI, or augur-bench-mpi next to this executable.
std::filesystem::path find_bench_program();
// --max-size: whole bytes, at most what one MPI call can address across the processes.
std::uint64_t check_max_size(const std::string& text, int processes);
// --budget: "600", "90s", "10m", "1h30m".
double parse_duration(const std::string& text);
// --assume-latency and --assume-bandwidth, read as the simulator reads a machine's links.
double parse_latency(const std::string& text);
double parse_bandwidth(const std::string& text);

}  // namespace augur::cli
