#include "cli/launcher.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
    if (oversubscribe) argv.emplace_back("--oversubscribe");
    if (geteuid() == 0) argv.emplace_back("--allow-run-as-root");
    for (const auto& name : exported) argv.insert(argv.end(), {"-x", name});
  } else if (!exported.empty()) {
    // MPICH's Hydra passes the whole environment on by default; naming the variables keeps
    // that true under a launcher configured otherwise.
    std::string list;
    for (const auto& name : exported) {
      if (!list.empty()) list += ',';
      list += name;
    }
    argv.insert(argv.end(), {"-genvlist", list});
  }
  return argv;
}

std::string shell_words(const std::vector<std::string>& argv) {
  std::string text;
  for (const auto& word : argv) text += (text.empty() ? "" : " ") + word;
  return text;
}

namespace {

// While a child runs, SIGTERM and SIGHUP go on to it and Ctrl-C is left to reach it from the
// terminal; the old handlers come back when the child has ended.
class ForwardSignals {
 public:
  ForwardSignals() {
    struct sigaction forward {}, ignore {};
    forward.sa_handler = forward_signal;
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGTERM, &forward, &old_term_);
    sigaction(SIGHUP, &forward, &old_hup_);
    sigaction(SIGINT, &ignore, &old_int_);
  }
  ~ForwardSignals() {
    running_child = 0;
    sigaction(SIGTERM, &old_term_, nullptr);
    sigaction(SIGHUP, &old_hup_, nullptr);
    sigaction(SIGINT, &old_int_, nullptr);
  }
  ForwardSignals(const ForwardSignals&) = delete;
  ForwardSignals& operator=(const ForwardSignals&) = delete;
  const struct sigaction& old_int() const { return old_int_; }

 private:
  struct sigaction old_term_ {}, old_hup_ {}, old_int_ {};
};

// Starts argv with its standard error on `error_fd` (its own when negative).
pid_t start_child(const std::vector<std::string>& argv, const ForwardSignals& signals, int error_fd) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t child = fork();
  if (child == 0) {
    sigaction(SIGINT, &signals.old_int(), nullptr);
    if (error_fd >= 0) dup2(error_fd, STDERR_FILENO);
    execvp(args[0], args.data());
    std::perror(args[0]);
    _exit(127);
  }
  if (child < 0) throw std::runtime_error("cannot start " + argv[0]);
  running_child = child;
  return child;
}

int wait_for(pid_t child) {
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

constexpr std::size_t kErrorTail = 64 * 1024;

enum class Pipe { copied, idle, closed };

// Copies what arrives on `from` within `timeout_ms` to augur's standard error, keeping its end
// in `tail`.
Pipe copy_errors(int from, int timeout_ms, std::string& tail) {
  pollfd ready{from, POLLIN, 0};
  const int polled = poll(&ready, 1, timeout_ms);
  if (polled < 0) return errno == EINTR ? Pipe::idle : Pipe::closed;
  if (polled == 0) return Pipe::idle;
  char buffer[4096];
  const auto n = read(from, buffer, sizeof buffer);
  if (n < 0) return errno == EINTR || errno == EAGAIN ? Pipe::idle : Pipe::closed;
  if (n == 0) return Pipe::closed;
  [[maybe_unused]] const auto written = write(STDERR_FILENO, buffer, static_cast<std::size_t>(n));
  tail.append(buffer, static_cast<std::size_t>(n));
  if (tail.size() > 2 * kErrorTail) tail.erase(0, tail.size() - kErrorTail);
  return Pipe::copied;
}

// Passes on the child's standard error until its writers close it or `child` has ended (ranks
// it left behind may still hold the pipe open). The wait status of `child` when it ended first.
std::optional<int> pass_on_errors(int from, pid_t child, std::string& tail) {
  for (;;) {
    const Pipe state = copy_errors(from, 200, tail);
    if (state == Pipe::closed) return std::nullopt;
    if (state == Pipe::copied) continue;
    int status = 0;
    if (waitpid(child, &status, WNOHANG) == child) {
      while (copy_errors(from, 0, tail) == Pipe::copied) {
      }
      return status;
    }
  }
}

}  // namespace

int run_and_wait(const std::vector<std::string>& argv) {
  const ForwardSignals signals;
  return wait_for(start_child(argv, signals, -1));
}

Finished run_and_watch(const std::vector<std::string>& argv) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("cannot create a pipe: " + std::string(std::strerror(errno)));
  const ForwardSignals signals;
  Finished finished;
  pid_t child = -1;
  try {
    child = start_child(argv, signals, fds[1]);
  } catch (...) {
    close(fds[0]);
    close(fds[1]);
    throw;
  }
  close(fds[1]);
  const auto ended = pass_on_errors(fds[0], child, finished.error_tail);
  close(fds[0]);
  finished.wait_status = ended ? *ended : wait_for(child);
  if (finished.error_tail.size() > kErrorTail) finished.error_tail.erase(0, finished.error_tail.size() - kErrorTail);
  return finished;
}

}  // namespace augur::cli
