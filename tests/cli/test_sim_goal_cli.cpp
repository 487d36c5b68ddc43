// `augur sim` on LogGOPSim's GOAL schedules: run, written from any program, and refused whole
// (file, line, reason; exit 2; nothing written) when the graph cannot run.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "augur_runner.hpp"

using augur_test::augur;
using augur_test::temp_file;

namespace {

constexpr const char* kLogGOPS = "--network loggops --loggops L=5us,o=1us,g=1us ";

double predicted(const std::string& args) {
  const auto r = augur("sim " + std::string(kLogGOPS) + args + " --json --no-progress");
  EXPECT_EQ(r.status, 0) << r.out;
  return r.status == 0 ? nlohmann::json::parse(r.out).at("predicted_seconds").get<double>() : -1;
}

}  // namespace

TEST(SimGoalCli, RunsAGoalScheduleByItsExtensionOrItsFirstWord) {
  const std::string text = "num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 0\n}\nrank 1 {\nl1: recv 8b from 0 tag 0\n}\n";
  EXPECT_DOUBLE_EQ(predicted(temp_file("pair.goal", text)), 7e-6);  // o + L + o
  EXPECT_DOUBLE_EQ(predicted(temp_file("pair.txt", text)), 7e-6);
}

TEST(SimGoalCli, AGeneratedBroadcastWrittenAsGoalRunsToTheSameTime) {
  const auto goal = testing::TempDir() + "bcast-bt.goal";
  std::filesystem::remove(goal);
  const double direct = predicted("--generate bcast algorithm=bt p=16 bytes=8 --write-schedule " + goal);
  ASSERT_TRUE(std::filesystem::exists(goal));
  EXPECT_DOUBLE_EQ(predicted(goal), direct);
  // And GOAL written from GOAL reads back to the same run.
  const auto again = testing::TempDir() + "bcast-again.goal";
  EXPECT_DOUBLE_EQ(predicted(goal + " --write-schedule " + again), direct);
  EXPECT_DOUBLE_EQ(predicted(again), direct);
}

TEST(SimGoalCli, ACycleIsRefusedWithItsLinesAndNothingIsWritten) {
  const auto goal = temp_file("cycle.goal", "num_ranks 1\nrank 0 {\na: calc 5\nb: calc 5\na requires b\nb irequires a\n}\n");
  const auto out = testing::TempDir() + "never.goal";
  std::filesystem::remove(out);
  const auto r = augur("sim " + goal + " --write-schedule " + out);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("cycle.goal:5: rank 0's dependencies form a cycle, so none of it can start: 'a requires b' "
                       "(line 5), 'b irequires a' (line 6)"),
            std::string::npos)
      << r.out;
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(SimGoalCli, AnUnknownLabelIsRefusedWithItsLine) {
  const auto goal = temp_file("label.goal", "num_ranks 2\nrank 0 {\nl1: send 1b to 1 tag 0\nl1 requires l7\n}\n");
  const auto out = testing::TempDir() + "never-label.goal";
  std::filesystem::remove(out);
  const auto r = augur("sim " + goal + " --write-schedule " + out);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("label.goal:4: rank 0 has no vertex labelled l7"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(SimGoalCli, AGoalScheduleIsWrittenOnlyAsGoal) {
  const auto goal = temp_file("one.goal", "num_ranks 1\nrank 0 {\nl1: calc 5\n}\n");
  const auto r = augur("sim " + goal + " --write-schedule " + testing::TempDir() + "one.sched");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("written as GOAL only"), std::string::npos) << r.out;
}
