// cmptrace: the worked example of the original thesis, reproduced digit for digit.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "trace/compare.hpp"
#include "trace/text_reader.hpp"

// The file's own names, apart from other test files' when a unity build (AUGUR_UNITY) joins them.
namespace test_trace_compare {
namespace {

namespace {

using namespace augur::trace;

const std::string kData = std::string(AUGUR_TEST_DATA) + "/trace/";

std::vector<std::string> lines_after(const std::string& text, const std::string& heading) {
  std::istringstream in(text.substr(text.find(heading)));
  std::vector<std::string> lines;
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line) && line[0] != '#') lines.push_back(line);
  return lines;
}

class WorkedExample : public ::testing::Test {
 protected:
  Trace measured = read_text_trace_file(kData + "cmptrace_measured.txt");
  Trace predicted = read_text_trace_file(kData + "cmptrace_predicted.txt");
  std::string text = format_comparison(compare_traces(measured, predicted), {});
};

TEST_F(WorkedExample, LevelAListsEveryStateWithItsRatioAndLine) {
  EXPECT_EQ(lines_after(text, "# A:"),
            (std::vector<std::string>{"p[0] COMPUTE 1.23 0.78 0.63 6", "p[0] BARRIER 0.11 0.24 2.18 7",
                                      "p[0] COMPUTE 2.46 1.28 0.52 8", "p[0] WAIT 0.20 0.70 3.50 9"}));
}

TEST_F(WorkedExample, LevelBTotalsPerProcessAndState) {
  EXPECT_EQ(lines_after(text, "# B:"),
            (std::vector<std::string>{"p[0] COMPUTE 3.69 2.06 0.56", "p[0] BARRIER 0.11 0.24 2.18",
                                      "p[0] WAIT 0.20 0.70 3.50"}));
}

TEST_F(WorkedExample, LevelCTotalsPerState) {
  EXPECT_EQ(lines_after(text, "# C:"),
            (std::vector<std::string>{"COMPUTE 3.69 2.06 0.56", "BARRIER 0.11 0.24 2.18", "WAIT 0.20 0.70 3.50"}));
}

TEST_F(WorkedExample, DivergenceSummaryNamesTheLargestGapFirst) {
  auto summary = lines_after(text, "# where");
  ASSERT_GE(summary.size(), 2u);
  EXPECT_EQ(summary[0], "elapsed A 4.00 B 3.00 ratio 0.75");
  EXPECT_EQ(summary[2], "  -1.63 p[0] COMPUTE 3.69 2.06 0.56");
}

TEST(Compare, LevelCTakesTheSlowestProcess) {
  auto a = read_text_trace("$events\nu:p[0] at 0: P COMPUTE\nu:p[0] at 2: P DONE\n"
                           "u:p[1] at 0: P COMPUTE\nu:p[1] at 5: P DONE\n", "a");
  auto b = read_text_trace("$events\nu:p[0] at 0: P COMPUTE\nu:p[0] at 4: P DONE\n"
                           "u:p[1] at 0: P COMPUTE\nu:p[1] at 1: P DONE\n", "b");
  auto c = compare_traces(a, b);
  ASSERT_EQ(c.per_state.size(), 1u);
  EXPECT_DOUBLE_EQ(c.per_state[0].a, 5);
  EXPECT_DOUBLE_EQ(c.per_state[0].b, 4);
}

TEST(Compare, StopsARankWhereTheStateSequencesDiffer) {
  auto a = read_text_trace("$events\nu:p[0] at 0: P COMPUTE\nu:p[0] at 1: P BCAST\nu:p[0] at 2: P DONE\n", "a");
  auto b = read_text_trace("$events\nu:p[0] at 0: P COMPUTE\nu:p[0] at 1: P REDUCE\nu:p[0] at 2: P DONE\n", "b");
  auto c = compare_traces(a, b);
  EXPECT_EQ(c.events.size(), 1u);
  ASSERT_EQ(c.mismatches.size(), 1u);
  EXPECT_NE(c.mismatches[0].find("A is BCAST, B is REDUCE"), std::string::npos);
}

TEST(Compare, ATimeOrRatioTooSmallForTheTablesDecimalsKeepsItsFigures) {
  auto a = read_text_trace("$events\nu:p[0] at 0: P COMPUTE\nu:p[0] at 1: P DONE\n", "a");
  auto b = read_text_trace("$events\nu:p[0] at 0: P COMPUTE\nu:p[0] at 0.00065: P DONE\n", "b");
  const auto text = format_comparison(compare_traces(a, b), {});
  EXPECT_EQ(text.rfind("# times in s;", 0), 0u) << text;
  EXPECT_NE(text.find("\np[0] COMPUTE 1.00 650 µs 0.00065 "), std::string::npos) << text;
  EXPECT_NE(text.find("\n  -1.00 p[0] COMPUTE 1.00 650 µs 0.00065 "), std::string::npos) << text;
}

TEST(Compare, RatioOfZeroTimeIsInfiniteOrUndefined) {
  EXPECT_TRUE(std::isinf(ratio(0, 1)));
  EXPECT_TRUE(std::isnan(ratio(0, 0)));
  EXPECT_DOUBLE_EQ(ratio(2, 1), 0.5);
}

}  // namespace

}  // namespace
}  // namespace test_trace_compare
