#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "report/scaling.hpp"

using augur::report::parse_mkgraph;
using augur::report::RunPoint;

TEST(Scaling, ParsesTheSeedsMkgraphFormat) {
  std::istringstream in("# 4 1000\ninput 0.5\ncompute 2.0\noutput 0.25\ntotal 2.75\n");
  auto run = parse_mkgraph(in, "run.txt");
  EXPECT_EQ(run.p, 4);
  EXPECT_EQ(run.size, 1000);
  EXPECT_DOUBLE_EQ(run.total, 2.75);
  EXPECT_DOUBLE_EQ(run.phases.at("compute"), 2.0);
  EXPECT_FALSE(run.phases.contains("total"));
}

TEST(Scaling, RejectsMalformedInputNamingTheLine) {
  std::istringstream no_header("compute 1\n");
  EXPECT_THROW(parse_mkgraph(no_header, "a.txt"), std::runtime_error);
  std::istringstream bad_time("# 2 10\ncompute fast\n");
  try {
    parse_mkgraph(bad_time, "b.txt");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("b.txt:2"), std::string::npos) << e.what();
  }
}

TEST(Scaling, SpeedupIsRelativeToTheSmallestRunOfEachSize) {
  std::vector<RunPoint> runs{{1, 100, {}, 8.0, "a"}, {2, 100, {}, 4.0, "b"}, {4, 100, {}, 2.5, "c"},
                             {2, 200, {}, 10.0, "d"}, {4, 200, {}, 6.0, "e"}};
  auto s = augur::report::speedups(runs);
  EXPECT_DOUBLE_EQ((s[{100, 1}]), 1.0);
  EXPECT_DOUBLE_EQ((s[{100, 2}]), 2.0);
  EXPECT_DOUBLE_EQ((s[{100, 4}]), 3.2);
  EXPECT_DOUBLE_EQ((s[{200, 2}]), 2.0);  // the base run of size 200 has p = 2
  EXPECT_NEAR((s[{200, 4}]), 2 * 10.0 / 6.0, 1e-12);
}

TEST(Scaling, RunsAreListedInReadableUnits) {
  std::vector<RunPoint> runs{{2, 1000, {}, 0.0046, "p2.txt"}, {4, 1000, {}, 2.5e-5, "p4.txt"}};
  EXPECT_EQ(augur::report::format_runs(runs),
            "     p         size        total  run\n"
            "     2         1000       4.6 ms  p2.txt\n"
            "     4         1000        25 µs  p4.txt\n");
}

TEST(Scaling, TimePlotsReadInTheUnitOfTheirLongestTime) {
  auto dir = std::filesystem::temp_directory_path() / ("augur-scaling-" + std::to_string(::getpid()));
  std::vector<RunPoint> runs{{2, 1000, {{"compute", 2e-6}}, 0.0046, "a"}, {4, 1000, {{"compute", 1e-6}}, 0.0025, "b"}};
  auto script = augur::report::write_scaling_plots(runs, {}, dir);
  std::ifstream in(script);
  std::string text{std::istreambuf_iterator<char>(in), {}};
  EXPECT_NE(text.find("set title 'time of total'\nset ylabel 'time (ms)'\nplot 'time-total.dat' using 1:($2*1000)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("set ylabel 'time (µs)'\nplot 'time-compute.dat' using 1:($2*1000000)"), std::string::npos)
      << text;
  std::filesystem::remove_all(dir);
}
