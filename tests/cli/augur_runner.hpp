#pragma once
// Running the augur executable (and other programs) from the command-line tests of the report
// commands: the exit status and everything printed, standard output and error together.
#include <sys/wait.h>

#include <unistd.h>

#include <array>
#include <filesystem>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace augur_test {

struct Result {
  int status;
  std::string out;
};

inline Result run(const std::string& command) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  std::string out;
  std::array<char, 4096> buf{};
  while (auto n = fread(buf.data(), 1, buf.size(), pipe)) out.append(buf.data(), n);
  int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

inline Result augur(const std::string& args) { return run(std::string(AUGUR_BINARY) + " " + args); }

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
  std::ofstream(path) << text;
  return path;
}

inline std::string data(const std::string& name) { return std::string(AUGUR_TEST_DATA) + "/" + name; }

inline std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++n;
  return n;
}

}  // namespace augur_test
