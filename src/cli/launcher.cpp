#include "cli/launcher.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace augur::cli {
namespace fs = std::filesystem;
namespace {

volatile sig_atomic_t running_child = 0;

void forward_signal(int signal) {
  if (running_child > 0) kill(running_child, signal);
}

}  // namespace

std::optional<fs::path> find_in_path(const std::string& program) {
  if (program.find('/') != std::string::npos)
    return access(program.c_str(), X_OK) == 0 ? std::optional<fs::path>(program) : std::nullopt;
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    fs::path candidate = fs::path(dir.empty() ? "." : dir) / program;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

fs::path beside_self(const fs::path& relative) {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  return (self.parent_path() / relative).lexically_normal();
}

bool launcher_is_open_mpi(const std::string& mpirun) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen((mpirun + " --version 2>&1").c_str(), "r"), pclose);
  if (!pipe) return false;
  char buffer[512];
  std::string text;
  while (fgets(buffer, sizeof buffer, pipe.get())) text += buffer;
  return text.find("Open MPI") != std::string::npos || text.find("OpenRTE") != std::string::npos;
}

std::vector<std::string> mpirun_command(const std::string& mpirun, int processes, bool oversubscribe,
                                        const std::vector<std::string>& exported) {
  std::vector<std::string> argv{mpirun, "-np", std::to_string(processes)};
  if (launcher_is_open_mpi(mpirun)) {
    if (oversubscribe) argv.push_back("--oversubscribe");
    if (geteuid() == 0) argv.push_back("--allow-run-as-root");
    for (const auto& name : exported) argv.insert(argv.end(), {"-x", name});
  } else if (!exported.empty()) {
    // MPICH's Hydra passes the whole environment on by default; naming the variables keeps
    // that true under a launcher configured otherwise.
    std::string list;
    for (const auto& name : exported) list += (list.empty() ? "" : ",") + name;
    argv.insert(argv.end(), {"-genvlist", list});
  }
  return argv;
}

std::string shell_words(const std::vector<std::string>& argv) {
  std::string text;
  for (const auto& word : argv) text += (text.empty() ? "" : " ") + word;
  return text;
}

int run_and_wait(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  struct sigaction forward {}, ignore {}, old_term {}, old_hup {}, old_int {};
  forward.sa_handler = forward_signal;
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGTERM, &forward, &old_term);
  sigaction(SIGHUP, &forward, &old_hup);
  sigaction(SIGINT, &ignore, &old_int);
  const pid_t child = fork();
  if (child == 0) {
    sigaction(SIGINT, &old_int, nullptr);
    execvp(args[0], args.data());
    std::perror(args[0]);
    _exit(127);
  }
  if (child < 0) throw std::runtime_error("cannot start " + argv[0]);
  running_child = child;
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  running_child = 0;
  sigaction(SIGTERM, &old_term, nullptr);
  sigaction(SIGHUP, &old_hup, nullptr);
  sigaction(SIGINT, &old_int, nullptr);
  return status;
}

}  // namespace augur::cli
