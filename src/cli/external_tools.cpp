#include "cli/external_tools.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "cli/launcher.hpp"

extern char** environ;

namespace augur::cli {
namespace fs = std::filesystem;
namespace {

// Runs argv in `dir` with its standard output discarded (pdflatex and gnuplot talk there; their
// errors go to standard error or a log) and returns its exit status, -1 if it did not start.
int run_in(const fs::path& dir, const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  int error = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TempDir::TempDir(const std::string& prefix) {
  auto pattern = (fs::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot create a temporary directory " + pattern);
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  if (!keep_) fs::remove_all(path_, ignored);
}

void draw_plots(const std::vector<report::Plot>& plots, const std::vector<report::Picture>& pictures, const fs::path& dir,
                const std::string& script_name) {
  if (!find_in_path("gnuplot")) throw std::runtime_error("gnuplot not found: install gnuplot-nox");
  fs::create_directories(dir);
  std::string script;
  for (auto picture : pictures) script += report::gnuplot_script(plots, picture);
  std::ofstream(dir / script_name) << script;
  if (run_in(dir, {"gnuplot", script_name}) != 0) throw std::runtime_error("gnuplot failed on " + (dir / script_name).string());
}

std::map<std::string, std::string> read_svgs(const std::vector<report::Plot>& plots, const fs::path& dir) {
  std::map<std::string, std::string> svgs;
  for (const auto& plot : plots) svgs[plot.name] = read_file(dir / (plot.name + ".svg"));
  return svgs;
}

void typeset_pdf(const fs::path& dir, const std::string& name) {
  if (!find_in_path("pdflatex"))
    throw std::runtime_error("pdflatex not found: install texlive-latex-base, or write .tex or .html instead");
  // The second pass settles the long tables' column widths.
  for (int pass = 0; pass < 2; ++pass)
    if (run_in(dir, {"pdflatex", "-interaction=batchmode", "-halt-on-error", name + ".tex"}) != 0)
      throw std::runtime_error("pdflatex failed; its log is " + (dir / (name + ".log")).string());
}

}  // namespace augur::cli
