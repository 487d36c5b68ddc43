// `augur sim` as a user runs it: the report's first line, JSON, schedules, errors and deadlocks.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

namespace {

struct Result {
  int status;
  std::string out;
};

Result augur(const std::string& args) {
  const std::string cmd = std::string(AUGUR_BINARY) + " " + args + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf{};
  while (auto n = fread(buf.data(), 1, buf.size(), pipe)) out.append(buf.data(), n);
  const int status = pclose(pipe);
  return {WEXITSTATUS(status), out};
}

std::string file(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST(SimCli, GeneratedBroadcastReportOpensLikeAugurRun) {
  auto r = augur("sim --machine sp2-mpl --network loggops --generate bcast algorithm=1m p=12 bytes=16");
  ASSERT_EQ(r.status, 0) << r.out;
  // The same readable headline as augur run's report; --json carries the exact seconds.
  EXPECT_EQ(r.out.rfind("Predicted run time on sp2-mpl: 202.1 µs", 0), 0u) << r.out;
}

TEST(SimCli, JsonCarriesThePredictionAndEveryRank) {
  auto r = augur("sim --machine sp2-mpl --network loggops --generate allreduce p=16 bytes=8 --json");
  ASSERT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_GT(j.at("predicted_seconds").get<double>(), 0);
  EXPECT_EQ(j.at("ranks").size(), 16u);
  EXPECT_EQ(j.at("operations").at("allreduce").at("count").get<int>(), 16);
}

TEST(SimCli, ScheduleRunsAndWritesATraceTheOtherToolsRead) {
  const auto sched = file("ring.sched", "ranks 4\nranks 0..N-1 { compute 10us sendrecv rank+1 rank-1 1KiB }\n");
  const auto out = testing::TempDir() + "sim-trace";
  std::filesystem::remove_all(out);
  auto r = augur("sim --machine sp2-mpl " + sched + " --trace " + out);
  ASSERT_EQ(r.status, 0) << r.out;
  auto s = augur("summary " + out);
  EXPECT_EQ(s.status, 0) << s.out;
  // The simulated trace replays to the same prediction.
  auto again = augur("sim --machine sp2-mpl " + out + " --json");
  ASSERT_EQ(again.status, 0) << again.out;
  auto first = augur("sim --machine sp2-mpl " + sched + " --json");
  EXPECT_EQ(nlohmann::json::parse(again.out).at("predicted_seconds"),
            nlohmann::json::parse(first.out).at("predicted_seconds"));
}

TEST(SimCli, ScheduleErrorsPointAtTheText) {
  const auto sched = file("bad.sched", "ranks 2\nrank 0 { sned 1 8 }\n");
  auto r = augur("sim " + sched);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("bad.sched:2:10: unknown operation 'sned'"), std::string::npos) << r.out;
}

TEST(SimCli, DeadlockNamesRanksAndEndsWithAnError) {
  const auto sched = file("dead.sched", "ranks 3\nranks 0..2 { recv rank+1 }\n");
  auto r = augur("sim " + sched);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("deadlock: 3 of 3 ranks"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rank 2: recv from rank 0"), std::string::npos) << r.out;
}

TEST(SimCli, HelpShowsExamples) {
  auto r = augur("sim --help");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("--generate bcast algorithm=1m p=12 bytes=16"), std::string::npos);
}
