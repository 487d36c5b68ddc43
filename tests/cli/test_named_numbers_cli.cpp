// NAME=NUMBER items (`augur sim --set`, `augur plot --set`, `augur learn --param`): read alike by
// every command, a name given again taking its later number, and an item that does not read
// named with its option and the form that was expected.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "augur_runner.hpp"

using augur_test::augur;
using augur_test::temp_file;

namespace {

bool says(const augur_test::Result& r, const std::string& text) { return r.out.find(text) != std::string::npos; }

std::string app_with_program() {
  return temp_file("named-numbers-app.json", R"({"augur_app": 1, "name": "t",
    "parameters": {"p": {"values": [4]}, "n": {"values": [64, 128]}}, "phases": [{"name": "all", "expr": "1"}],
    "program": {"groups": [{"ranks": {"first": "0", "last": "p - 1"}, "body": [{"compute": "n / 1000"}]}]}})");
}

}  // namespace

TEST(NamedNumbersCli, SimSetTakesTheLaterNumberOfANameGivenTwice) {
  const auto r = augur("sim --machine t3d --json --no-progress --app " + app_with_program() +
                       " --ranks 4 --set n=64 --set n=1.28e2");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(nlohmann::json::parse(r.out).at("run").at("parameters").at("n"), 128.0) << r.out;
}

TEST(NamedNumbersCli, SimSetNamesAnItemThatDoesNotRead) {
  const auto app = app_with_program();
  for (const std::string item : {"n=abc", "n", "=64", "n=", "n=1x", "n=inf", "n=+64"}) {
    const auto r = augur("sim --machine t3d --no-progress --app " + app + " --ranks 4 --set " + item);
    EXPECT_EQ(r.status, 2) << item;
    EXPECT_TRUE(says(r, "--set " + item + ": expected NAME=NUMBER, e.g. --set n=1024")) << r.out;
  }
}

TEST(NamedNumbersCli, PlotSetNamesAnItemThatDoesNotRead) {
  const auto mandel = std::string(AUGUR_TEST_DATA) + "/../../examples/models/mandel.json";
  for (const std::string item : {"d=", "d=half", "=1"}) {
    const auto r = augur("plot " + mandel + " --machine t3d --no-draw --set " + item);
    EXPECT_EQ(r.status, 2) << item;
    EXPECT_TRUE(says(r, "--set " + item + ": expected NAME=NUMBER, e.g. --set tcompute=0.5")) << r.out;
  }
}

// Read before the traces are opened: the traces here need not exist.
TEST(NamedNumbersCli, LearnParamNamesAMissingNameOrANumberThatDoesNotRead) {
  auto r = augur("learn no-trace-a no-trace-b --param =256");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(says(r, "--param =256: expected NAME=VALUE, e.g. n=1024")) << r.out;
  r = augur("learn no-trace-a no-trace-b --param n256");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(says(r, "--param n256: expected NAME=VALUE, e.g. n=1024")) << r.out;
  for (const std::string number : {"x", "", "1e999", "256 "}) {
    r = augur("learn no-trace-a no-trace-b --param 'n=" + number + "'");
    EXPECT_EQ(r.status, 2) << number;
    EXPECT_TRUE(says(r, "--param n=" + number + ": '" + number + "' is not a number")) << r.out;
  }
  r = augur("learn no-trace-a no-trace-b --param p=4");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(says(r, "p is the traces' own process count")) << r.out;
}
