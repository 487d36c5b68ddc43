#pragma once
// Running the augur executable and other programs from tests: every test that starts a program
// goes through here, so each sees exit statuses, output and signals the same way.
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace augur_test {

struct Result {
  int status = -1;  // the exit status; -1 when a signal ended the program, 127 when it could not start
  std::string out;  // standard output, with standard error interleaved as printed unless kept apart
  std::string err;  // standard error, when kept apart (Options::separate_stderr)
};

// `input` has an initializer so that GCC 12 does not warn of it missing from {.separate_stderr = true}.
struct Options {
  std::string input{};           // standard input; without it the program reads /dev/null
  bool separate_stderr = false;  // standard error in Result::err instead of Result::out
};

namespace detail {

// A file descriptor closed when it goes out of scope.
struct Fd {
  int fd = -1;
  Fd() = default;
  explicit Fd(int f) : fd(f) {}
  Fd(Fd&& other) noexcept : fd(std::exchange(other.fd, -1)) {}
  Fd& operator=(Fd&&) = delete;
  ~Fd() { reset(); }
  void reset() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

struct Pipe {
  Fd read, write;
  Pipe() {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");
    read.fd = fds[0];
    write.fd = fds[1];
  }
};

// Standard input from a file: the program may exit without reading it, and a pipe would then
// stop the test with SIGPIPE.
inline Fd input_file(const std::string& text) {
  if (text.empty()) return Fd(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  char name[] = "/tmp/augur-test-inputXXXXXX";
  Fd fd(::mkostemp(name, O_CLOEXEC));
  ::unlink(name);
  if (fd.fd < 0 || ::write(fd.fd, text.data(), text.size()) != static_cast<ssize_t>(text.size()) ||
      ::lseek(fd.fd, 0, SEEK_SET) != 0)
    throw std::runtime_error("cannot write the standard input of a test program");
  return fd;
}

// Reads both pipes to their end at once, so a program filling one while we wait on the other
// cannot stall.
inline void drain(Fd& out, std::string& out_text, Fd& err, std::string& err_text) {
  std::array<char, 4096> buf{};
  while (out.fd >= 0 || err.fd >= 0) {
    std::array<pollfd, 2> fds{{{out.fd, POLLIN, 0}, {err.fd, POLLIN, 0}}};
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("poll failed");
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      Fd& fd = i == 0 ? out : err;
      const auto n = ::read(fd.fd, buf.data(), buf.size());
      if (n > 0) (i == 0 ? out_text : err_text).append(buf.data(), static_cast<std::size_t>(n));
      else if (n == 0 || errno != EINTR) fd.reset();
    }
  }
}

// Starts argv (the program looked up on PATH) with those standard streams.
inline pid_t spawn(const std::vector<std::string>& argv, int in, int out, int err) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    // dup2 onto itself would keep close-on-exec, and the program would start without that stream.
    const auto give = [](int fd, int as) { fd == as ? ::fcntl(fd, F_SETFD, 0) : ::dup2(fd, as); };
    give(in, STDIN_FILENO);
    give(out, STDOUT_FILENO);
    give(err, STDERR_FILENO);
    ::execvp(args[0], args.data());
    std::perror(args[0]);
    ::_exit(127);
  }
  return pid;
}

}  // namespace detail

// Waits for a program started by start(); its exit status, -1 when a signal ended it.
inline int finish(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Starts argv in the background, standard output and error going to `log`, for a test that acts
// on the program while it runs (stops it, watches its files); finish(pid) waits for it.
inline pid_t start(const std::vector<std::string>& argv, const std::filesystem::path& log) {
  detail::Fd input(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  detail::Fd output(::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  if (output.fd < 0) throw std::runtime_error("cannot write " + log.string());
  return detail::spawn(argv, input.fd, output.fd, output.fd);
}

// Runs argv (the program looked up on PATH) to completion.
inline Result run(const std::vector<std::string>& argv, const Options& options = {}) {
  detail::Fd input = detail::input_file(options.input);
  detail::Pipe out, err;
  const pid_t pid =
      detail::spawn(argv, input.fd, out.write.fd, options.separate_stderr ? err.write.fd : out.write.fd);
  out.write.reset();
  err.write.reset();
  Result result;
  detail::drain(out.read, result.out, err.read, result.err);
  result.status = finish(pid);
  return result;
}

// Runs a shell command line (redirections, pipes and quoting as in sh).
inline Result run(const std::string& command, const Options& options = {}) {
  return run(std::vector<std::string>{"/bin/sh", "-c", command}, options);
}

#ifdef AUGUR_BINARY
// augur with `args` as shell words.
inline Result augur(const std::string& args, const Options& options = {}) {
  return run(AUGUR_BINARY " " + args, options);
}

// augur with `args` as they are, unquoted.
inline Result augur(std::vector<std::string> args, const Options& options = {}) {
  args.insert(args.begin(), AUGUR_BINARY);
  return run(args, options);
}
#endif

inline bool have(const std::string& program) { return run("command -v " + program).status == 0; }

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A file of the test's own under the temporary directory, holding `text`.
// In a directory of this test process: ctest runs tests side by side, and two writing the same
// name at once would read each other's half-written file.
inline std::string temp_file(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::path(testing::TempDir()) / ("augur-cli-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

#ifdef AUGUR_TEST_DATA
inline std::string data(const std::string& name) { return AUGUR_TEST_DATA "/" + name; }
#endif

inline std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++n;
  return n;
}

}  // namespace augur_test
