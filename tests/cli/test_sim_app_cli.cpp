// `augur sim --app`: an application model's program run at a count, against the same program
// written as a schedule with its neighbours worked out here, against a hand computation of its
// bounds, and the errors of a model it cannot run.
#include <gtest/gtest.h>

#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "augur_runner.hpp"

using augur_test::augur;
using augur_test::read_text;
using augur_test::temp_file;

namespace {

double predicted(const std::string& args) {
  const auto r = augur("sim --machine t3d --json --no-progress " + args);
  EXPECT_EQ(r.status, 0) << r.out;
  return r.status == 0 ? nlohmann::json::parse(r.out).at("predicted_seconds").get<double>() : -1;
}

std::string app_file(const std::string& name, const std::string& program, const std::string& extra = "") {
  return temp_file(name, R"({"augur_app": 1, "name": "t", "parameters": {"p": {"values": [64]}, "n": {"values": [64, 128]}},
    "phases": [{"name": "all", "expr": "1"}], )" + extra + "\"program\": " + program + "}\n");
}

// A periodic 5-point stencil: each rank receives from and sends to its four neighbours on the
// 8 x 8 torus, then the ranks sum 8 bytes.
std::string torus_stencil() {
  std::string ops = R"({"compute": "0.001"})";
  const char* dirs[] = {R"("dim": 0, "shift": -1)", R"("dim": 0, "shift": 1)", R"("dim": 1, "shift": -1)",
                        R"("dim": 1, "shift": 1)"};
  for (int d = 0; d < 4; ++d)
    ops += fmt::format(R"(, {{"op": "irecv", "peer": {{"grid": {{"dims": 2, {}, "periodic": true}}}}, "bytes": "n * 16", "tag": {}}})",
                       dirs[d], d);
  for (int d = 0; d < 4; ++d)  // to the neighbour on the other side, whose receive from this rank has tag d
    ops += fmt::format(R"(, {{"op": "isend", "peer": {{"grid": {{"dims": 2, {}, "periodic": true}}}}, "bytes": "n * 16", "tag": {}}})",
                       dirs[d ^ 1], d);
  ops += R"(, {"op": "waitall"}, {"op": "allreduce", "bytes": "8"})";
  return R"({"groups": [{"ranks": {"first": "0", "last": "p - 1"}, "body": [{"repeat": "5", "body": [)" + ops + "]}]}]}";
}

// The same program as a schedule, its neighbours in tables.
std::string torus_schedule() {
  std::string tables[4];
  for (int r = 0; r < 64; ++r) {
    const int row = r / 8, col = r % 8;
    const int peers[4] = {(row + 7) % 8 * 8 + col, (row + 1) % 8 * 8 + col, row * 8 + (col + 7) % 8, row * 8 + (col + 1) % 8};
    for (int d = 0; d < 4; ++d) tables[d] += fmt::format("{}{}", r ? ", " : "", peers[d]);
  }
  std::string text = "ranks 64\n";
  const char* names[] = {"up", "down", "left", "right"};
  for (int d = 0; d < 4; ++d) text += fmt::format("table {} = {{{}}}\n", names[d], tables[d]);
  text += "ranks 0..N-1 {\n  repeat 5 {\n    compute 0.001\n";
  for (int d = 0; d < 4; ++d) text += fmt::format("    irecv {}[rank] 2048 tag={}\n", names[d], d);
  for (int d = 0; d < 4; ++d) text += fmt::format("    isend {}[rank] 2048 tag={}\n", names[d ^ 1], d);
  return text + "    waitall\n    allreduce 8\n  }\n}\n";
}

}  // namespace

TEST(SimAppCli, AProgramRunsAsTheSameProgramWrittenAsASchedule) {
  const auto app = app_file("torus-app.json", torus_stencil());
  const double from_app = predicted("--app " + app + " --ranks 64 --set n=128");
  const double from_schedule = predicted(temp_file("torus.sched", torus_schedule()));
  EXPECT_GT(from_app, 0.005);
  EXPECT_EQ(from_app, from_schedule);
  // And as the schedule it writes.
  const auto written = testing::TempDir() + "torus-written.sched";
  EXPECT_EQ(predicted("--app " + app + " --ranks 64 --set n=128 --write-schedule " + written), from_app);
  EXPECT_EQ(predicted(written), from_app);
}

// Ten iterations of 64 ms / p each, within 9 to 11 iterations of 60 to 70 ms / p.
TEST(SimAppCli, BoundsTakeTheLawsLowAndHigh) {
  const auto app = app_file("bounds-app.json", R"({"groups": [{"ranks": {"first": "0", "last": "p - 1"}, "body": [
      {"repeat": {"expr": "10", "low": "9", "high": "11"}, "body": [
        {"compute": {"expr": "0.064 / p", "low": "0.06 / p", "high": "0.07 / p"}}]}]}]})");
  EXPECT_NEAR(predicted("--app " + app + " --ranks 64 --set n=64"), 10 * 0.064 / 64, 1e-15);
  EXPECT_NEAR(predicted("--app " + app + " --ranks 64 --set n=64 --bound low"), 9 * 0.06 / 64, 1e-15);
  EXPECT_NEAR(predicted("--app " + app + " --ranks 64 --set n=64 --bound max"), 11 * 0.07 / 64, 1e-15);
  EXPECT_NEAR(predicted("--app " + app + " --ranks 16 --set n=64 --compute-scale 2"), 2 * 10 * 0.064 / 16, 1e-15);
}

// The same program: its prediction carries the runs at the laws' low and high bounds, in the
// JSON exactly and beside the prediction in the text.
TEST(SimAppCli, ThePredictionComesWithTheLawsBounds) {
  const auto app = app_file("default-bounds-app.json", R"({"groups": [{"ranks": {"first": "0", "last": "p - 1"}, "body": [
      {"repeat": {"expr": "10", "low": "9", "high": "11"}, "body": [
        {"compute": {"expr": "0.064 / p", "low": "0.06 / p", "high": "0.07 / p"}}]}]}]})");
  const auto args = "sim --machine t3d --no-progress --app " + app + " --ranks 64 --set n=64";
  auto r = augur(args + " --json");
  ASSERT_EQ(r.status, 0) << r.out;
  auto report = nlohmann::json::parse(r.out);
  EXPECT_NEAR(report.at("predicted_law_bounds").at("low").get<double>(), 9 * 0.06 / 64, 1e-15);
  EXPECT_NEAR(report.at("predicted_law_bounds").at("high").get<double>(), 11 * 0.07 / 64, 1e-15);
  r = augur(args);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.rfind("Predicted run time on t3d: 10 ms (8.438 ms … 12.03 ms by the laws' bounds)  (bound avg", 0), 0u)
      << r.out;
  // One bound asked for, or none, runs that one alone.
  for (const auto* only : {" --bound low", " --no-bounds"}) {
    r = augur(args + only + " --json");
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_FALSE(nlohmann::json::parse(r.out).contains("predicted_law_bounds")) << only;
  }
  // Exact laws have no errors: both bounds are the prediction.
  const auto exact = app_file("exact-bounds-app.json", R"({"groups": [{"ranks": {"first": "0", "last": "p - 1"}, "body": [
      {"repeat": "10", "body": [{"compute": "0.064 / p"}]}]}]})");
  r = augur("sim --machine t3d --json --no-progress --app " + exact + " --ranks 64 --set n=64");
  ASSERT_EQ(r.status, 0) << r.out;
  report = nlohmann::json::parse(r.out);
  EXPECT_EQ(report.at("predicted_law_bounds").at("low"), report.at("predicted_seconds"));
  EXPECT_EQ(report.at("predicted_law_bounds").at("high"), report.at("predicted_seconds"));
  EXPECT_EQ(augur("sim --machine t3d --no-bounds " + temp_file("no-app.sched", "ranks 2\nranks 0..N-1 {\n  barrier\n}\n")).status,
            2);
}

TEST(SimAppCli, TheExampleRunsAndStillPlots) {
  const auto example = std::string(AUGUR_TEST_DATA) + "/../../examples/models/stencil-program.json";
  const auto r = augur("sim --machine t3d --no-progress --app " + example + " --ranks 64 --set n=1024");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.rfind("Predicted run time on t3d: ", 0), 0u) << r.out;
  const auto plot = augur("plot " + example + " --machine t3d --no-draw -o " + testing::TempDir() + "stencil-plot");
  EXPECT_EQ(plot.status, 0) << plot.out;
}

// examples/models/farm-program.json: 1,000 tasks of 0.5 ms over 3 workers take at least a third
// of 0.5 s, and over 6 workers less time.
TEST(SimAppCli, TheFarmExampleDealsItsTasksAndStillPlots) {
  const auto example = std::string(AUGUR_TEST_DATA) + "/../../examples/models/farm-program.json";
  const auto predicted = [&](int ranks) {
    const auto r = augur("sim --machine t3d --json --no-bounds --app " + example + " --ranks " + std::to_string(ranks));
    EXPECT_EQ(r.status, 0) << r.out;
    return r.status == 0 ? nlohmann::json::parse(r.out).at("predicted_seconds").get<double>() : -1.0;
  };
  const double three = predicted(4);
  EXPECT_GT(three, 1000 * 0.5e-3 / 3);
  EXPECT_LT(predicted(7), three);
  const auto plot = augur("plot " + example + " --machine t3d --no-draw -o " + testing::TempDir() + "farm-plot");
  EXPECT_EQ(plot.status, 0) << plot.out;
}

TEST(SimAppCli, FarBeyondTheCountsLearnedAtIsWarned) {
  const auto app = app_file("far-app.json", R"({"groups": [{"ranks": {"first": "0", "last": "p - 1"}, "body": [
      {"op": "barrier"}]}], "measured_ranks": [2, 4]})");
  const auto r = augur("sim --machine t3d --json --app " + app + " --ranks 512 --set n=64");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto warnings = nlohmann::json::parse(r.out).at("warnings");
  ASSERT_EQ(warnings.size(), 1u) << r.out;
  EXPECT_EQ(warnings[0], "512 ranks is 128x the largest count the program was learned at (4); the prediction's low "
                         "and high bounds say how far its laws' errors reach");
}

TEST(SimAppCli, WhatCannotRunSaysWhy) {
  const auto app = app_file("errors-app.json", R"({"groups": [{"ranks": {"first": "0", "last": "p - 1"}, "body": [
      {"op": "send", "peer": {"fixed": "p"}, "bytes": "n"}]}]})");
  auto r = augur("sim --app " + app + " --set n=64");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("--app needs --ranks P"), std::string::npos) << r.out;
  r = augur("sim --app " + app + " --ranks 8");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("parameter 'n' of t takes 2 values: give one with --set n=NUMBER"), std::string::npos) << r.out;
  r = augur("sim --app " + app + " --ranks 8 --set n=64");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("errors-app.json:3: program.groups[0].body[0].peer.fixed: rank 8 is outside 0..7 at p = 8"),
            std::string::npos) << r.out;
  const auto mandel = std::string(AUGUR_TEST_DATA) + "/../../examples/models/mandel.json";
  r = augur("sim --app " + mandel + " --ranks 8");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("mandel has no program section"), std::string::npos) << r.out;
  r = augur("sim " + mandel);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("augur sim --app FILE --ranks P"), std::string::npos) << r.out;
}

TEST(SimAppCli, HelpTeachesApp) {
  const auto r = augur("sim --help");
  EXPECT_NE(r.out.find("augur sim --app examples/models/stencil-program.json --ranks 4096"), std::string::npos);
}
