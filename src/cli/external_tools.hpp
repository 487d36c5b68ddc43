#pragma once
// The two programs the report commands hand their output to: gnuplot draws the pictures and
// pdflatex typesets a sheet. Each runs in its own working directory, so paths inside the files
// they read stay relative and need no quoting.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "report/gnuplot.hpp"

namespace augur::cli {

// A directory of its own under the system's temporary directory, removed when done unless kept
// (for a failed run whose files explain the failure).
class TempDir {
 public:
  explicit TempDir(const std::string& prefix);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  void keep() { keep_ = true; }

 private:
  std::filesystem::path path_;
  bool keep_ = false;
};

// Writes `plots` as DIR/SCRIPT and draws them into DIR, once per kind of picture. Throws
// std::runtime_error when gnuplot is missing or fails.
void draw_plots(const std::vector<report::Plot>& plots, const std::vector<report::Picture>& pictures,
                const std::filesystem::path& dir, const std::string& script = "plots.gp");

// The SVG pictures gnuplot drew in `dir`, by stem.
std::map<std::string, std::string> read_svgs(const std::vector<report::Plot>& plots, const std::filesystem::path& dir);

// Typesets DIR/NAME.tex into DIR/NAME.pdf. Throws std::runtime_error naming the log on failure.
void typeset_pdf(const std::filesystem::path& dir, const std::string& name);

}  // namespace augur::cli
