#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "bench/resume.hpp"
#include "fit/raw.hpp"

namespace fs = std::filesystem;
using augur::fit::Measurement;

namespace {

fs::path fresh_file(const std::string& name) {
  const auto path = fs::temp_directory_path() / ("augur_test_" + name + "_" + std::to_string(::getpid()));
  fs::remove(path);
  return path;
}

Measurement point(const std::string& op, double bytes) { return {op, 2, bytes, 1e-6, 2e-6, 2e-6, 3e-6, 1e-7, 10, {}, {}, {}}; }

}  // namespace

TEST(BenchResume, CutsAPartialLastLineSoAppendingStaysValid) {
  const auto path = fresh_file("resume_cut");
  {
    augur::fit::RawWriter out(path, {{"machine", {{"name", "m"}}}}, false);
    out.write(point("pingpong", 0));
    out.write(point("pingpong", 1));
  }
  std::ofstream(path, std::ios::app) << R"({"op":"pingpong","p":2,"by)";

  const auto earlier = augur::bench::reopen_raw_file(path);
  EXPECT_EQ(earlier.points.size(), 2u);
  EXPECT_EQ(earlier.header["machine"]["name"], "m");
  {
    augur::fit::RawWriter out(path, {}, true);
    out.write(point("pingpong", 2));
  }
  const auto after = augur::fit::read_raw_file(path);  // strict: no damaged line left
  ASSERT_EQ(after.points.size(), 3u);
  EXPECT_EQ(after.points[2].bytes, 2);
  fs::remove(path);
}

TEST(BenchResume, LeavesACompleteFileAsItIs) {
  const auto path = fresh_file("resume_complete");
  {
    augur::fit::RawWriter out(path, {}, false);
    out.write(point("bcast", 8));
  }
  const auto size = fs::file_size(path);
  EXPECT_EQ(augur::bench::reopen_raw_file(path).points.size(), 1u);
  EXPECT_EQ(fs::file_size(path), size);
  fs::remove(path);
}

TEST(BenchResume, RefusesAFileDamagedBeforeTheEnd) {
  const auto path = fresh_file("resume_damaged");
  std::ofstream(path) << "{\"augur_raw\":1}\n{broken\n"
                      << augur::fit::to_json(point("bcast", 8)).dump() << "\n";
  EXPECT_THROW(augur::bench::reopen_raw_file(path), std::runtime_error);
  fs::remove(path);
}
