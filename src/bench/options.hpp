#pragma once
// The command line of augur-bench-mpi (docs/bench.md). `augur bench` builds it; it can also be
// given by hand inside an existing mpirun or batch job.
#include <filesystem>
#include <string>
#include <vector>

#include "bench/progress.hpp"
#include "bench/settings.hpp"

namespace augur::bench {

struct Options {
  std::filesystem::path raw;
  bool resume = false;
  bool progress = false;
  std::string machine;  // empty: from the host name
  bool node_kernels = true;  // time the node kernels for the model's compute section
  // Not empty: only calibrate the network for a budget (calibrate.hpp) and write it here.
  std::filesystem::path calibrate;
  // The whole run's clock, from `augur bench`, for the progress line (progress.hpp).
  RunClock run;
  SweepSettings settings;
};

// Throws std::invalid_argument with a message for the user. `world` is the number of MPI
// processes, for checking group sizes. Returns false (after printing) for --help.
bool parse_options(int argc, char** argv, int world, bool print, Options& options);

}  // namespace augur::bench
