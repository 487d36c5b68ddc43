#include "bench_support.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "../cli/augur_runner.hpp"

namespace augur::test {
namespace {

void allow_mpirun_here() {
  setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
  setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
  setenv("OMPI_MCA_rmaps_base_oversubscribe", "1", 1);
}

}  // namespace

std::vector<std::string> mpirun(int processes, const std::vector<std::string>& program_and_args) {
  allow_mpirun_here();
  std::vector<std::string> argv{AUGUR_MPIEXEC, "-n", std::to_string(processes)};
  argv.insert(argv.end(), program_and_args.begin(), program_and_args.end());
  return argv;
}

int count_lines(const std::filesystem::path& path) {
  std::ifstream in(path);
  int lines = 0;
  std::string line;
  while (std::getline(in, line)) ++lines;
  return lines;
}

std::filesystem::path scratch_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("augur_" + name + "_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

bool launcher_is_open_mpi() {
  return augur_test::run(std::vector<std::string>{AUGUR_MPIEXEC, "--version"}).out.find("Open MPI") != std::string::npos;
}

}  // namespace augur::test
