#pragma once
// Running programs from tests: mpirun with augur-bench-mpi, and the augur executable.
#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace augur::test {

struct ProcessResult {
  int exit_code = -1;  // -1 when killed by a signal
  std::string output;  // stdout and stderr together
};

// Runs argv to completion.
ProcessResult run_process(const std::vector<std::string>& argv);

// Starts argv in the background with its output going to `log`; returns its process id.
pid_t start_process(const std::vector<std::string>& argv, const std::filesystem::path& log);

// Waits for a process started by start_process; returns its exit code or -1 if signalled.
int wait_process(pid_t pid);

// mpirun -np N PROGRAM ARGS…, allowed to oversubscribe and to run as root (both through the
// environment, which MPICH ignores).
std::vector<std::string> mpirun(int processes, const std::vector<std::string>& program_and_args);

// Lines in a file (0 if it does not exist).
int count_lines(const std::filesystem::path& path);

std::filesystem::path scratch_dir(const std::string& name);  // empty, under the temp directory

}  // namespace augur::test
