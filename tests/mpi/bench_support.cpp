#include "run_process.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace augur::test {
namespace {

void exec(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  execvp(args[0], args.data());
  std::perror(args[0]);
  _exit(127);
}

void allow_mpirun_here() {
  setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
  setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
  setenv("OMPI_MCA_rmaps_base_oversubscribe", "1", 1);
}

}  // namespace

pid_t start_process(const std::vector<std::string>& argv, const std::filesystem::path& log) {
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    close(fd);
    exec(argv);
  }
  return pid;
}

int wait_process(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

ProcessResult run_process(const std::vector<std::string>& argv) {
  char log_name[] = "/tmp/augur_test_outputXXXXXX";
  const int fd = mkstemp(log_name);
  close(fd);
  ProcessResult result;
  result.exit_code = wait_process(start_process(argv, log_name));
  std::ifstream in(log_name);
  result.output.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  std::remove(log_name);
  return result;
}

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

}  // namespace augur::test
