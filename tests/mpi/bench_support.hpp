#pragma once
// What the bench tests share: mpirun's command line, and the files a run leaves. Programs are run
// through tests/cli/augur_runner.hpp.
#include <filesystem>
#include <string>
#include <vector>

namespace augur::test {

// mpirun -np N PROGRAM ARGS…, allowed to oversubscribe and to run as root (both through the
// environment, which MPICH ignores).
std::vector<std::string> mpirun(int processes, const std::vector<std::string>& program_and_args);

// Lines in a file (0 if it does not exist).
int count_lines(const std::filesystem::path& path);

std::filesystem::path scratch_dir(const std::string& name);  // empty, under the temp directory

bool launcher_is_open_mpi();  // whether the tests' mpirun is Open MPI's (else MPICH's)

}  // namespace augur::test
