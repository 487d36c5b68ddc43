// A wait on requests other than the oldest (`"positions"`): read back as written, its errors, run
// by the simulator as the same program written as a schedule with `wait {…}`, and learned from
// runs that wait so.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "app/app_program_json.hpp"
#include "app_program_text.hpp"
#include "learn/rank_sequences.hpp"
#include "learn_synthetic.hpp"
#include "sim/kernel/kernel.hpp"
#include "sim/network/loggops.hpp"
#include "sim/program/app_program.hpp"
#include "sim/program/schedule.hpp"

// The file's own names, apart from other test files' when a unity build (AUGUR_UNITY) joins them.
namespace test_app_program_wait {
namespace {

using namespace augur;
using namespace augur::test;
using augur::test::error_of;  // over another file's error_of in a unity build

namespace {

// A ring of 1 MiB messages: each rank posts the receive from its left, sends to its right, then
// waits for its send (the second outstanding request), computes 2 ms and waits for its receive.
std::string ring(const std::string& first_wait) {
  return all_ranks(R"([{"repeat": "3", "body": [
    {"op": "irecv", "peer": {"offset": "-1"}, "bytes": "1048576", "tag": 0},
    {"op": "isend", "peer": {"offset": "1"}, "bytes": "1048576", "tag": 0},
    )" + first_wait + R"(,
    {"compute": "2e-3"},
    {"op": "wait"}]}])");
}

std::vector<double> finishes(const sim::Program& program) {
  const sim::LogGOPSNetwork net(sim::parse_loggops("L=3us,o=1.5us,g=1us,G=6ns"));
  const auto result = sim::simulate(program, net);
  std::vector<double> out;
  for (const auto& r : result.ranks) out.push_back(r.finish);
  return out;
}

}  // namespace

TEST(AppProgramWait, PositionsAreReadBackAsWrittenWithTheirCount) {
  const auto app = parsed(ring(R"({"op": "wait", "positions": [1]})"));
  ASSERT_TRUE(app.program);
  const auto& wait = app.program->groups[0].body[0].body[2];
  EXPECT_EQ(wait.positions, (std::vector<std::uint32_t>{1}));
  EXPECT_EQ(wait.count, 1);
  const auto written = app::program_to_json(*app.program);
  EXPECT_EQ(written["groups"][0]["body"][0]["body"][2].dump(), R"({"op":"wait","positions":[1]})");
  EXPECT_EQ(app::program_to_json(*parsed(written.dump()).program), written);
}

TEST(AppProgramWait, BadPositionsNameTheFieldAndTheReason) {
  const auto error = [](const std::string& wait) { return error_of(ring(wait)); };
  EXPECT_NE(error(R"({"op": "wait", "positions": [1], "count": 1})").find(
                "positions: give either count (the oldest requests) or positions, not both"),
            std::string::npos);
  EXPECT_NE(error(R"({"op": "wait", "positions": []})").find("positions: expected a non-empty array"), std::string::npos);
  EXPECT_NE(error(R"({"op": "wait", "positions": [2, 1]})").find("positions[1]: places must be in ascending order"),
            std::string::npos);
  EXPECT_NE(error(R"({"op": "wait", "positions": [-1]})").find("positions[0]"), std::string::npos);
  EXPECT_NE(error(R"({"op": "waitall", "positions": [0]})").find("positions"), std::string::npos);
}

TEST(AppProgramWait, TheSimulatorRunsItAsTheScheduleWithAWaitSet) {
  const auto app = sim::instantiate(parsed(ring(R"({"op": "wait", "positions": [1]})")), 4);
  const auto schedule = sim::parse_schedule(
      "ranks 4\nranks 0..N-1 { repeat 3 { irecv rank-1 1MiB isend rank+1 1MiB wait {1} compute 2ms "
      "wait 1 } }\n",
      "ring.sched");
  EXPECT_EQ(finishes(*app), finishes(*schedule));
  // Waiting for the oldest request (the receive) first is another program, and another time.
  const auto oldest_first = sim::instantiate(parsed(ring(R"({"op": "wait"})")), 4);
  EXPECT_NE(finishes(*oldest_first), finishes(*schedule));
}

TEST(AppProgramWait, LearnedFromRunsThatWaitForTheSendFirst) {
  // The traces of one learning share the numbering of their waits' places (learn/rank_sequences.hpp).
  const auto sets = std::make_shared<learn::WaitPlaceSets>();
  const auto send_first = sets->id({1});
  EXPECT_EQ(sets->id({0, 2}), send_first + 1);
  EXPECT_EQ(sets->id({1}), send_first);
  const auto program = [&](int r, int p) {
    std::vector<sim::Op> ops;
    for (int i = 0; i < 3; ++i) {
      ops.push_back(sim::irecv_op((r + p - 1) % p));
      ops.push_back(sim::isend_op((r + 1) % p, 4096));
      ops.push_back(sim::compute_op(1e-5));
      auto wait = sim::wait_op(1);
      wait.tag = send_first;  // the second outstanding request
      ops.push_back(wait);
      ops.push_back(sim::compute_op(2e-6));
      ops.push_back(sim::wait_op(1));
    }
    return ops;
  };
  auto runs = learn::testing::runs_of(program);
  for (auto& run : runs) run.sequences.wait_sets = sets;
  const auto learned = learn::learn_program(runs, "");
  ASSERT_EQ(learned.program.groups.size(), 1u);
  const auto written = app::program_to_json(learned.program).dump();
  EXPECT_NE(written.find(R"({"op":"wait","positions":[1]})"), std::string::npos) << written;
  EXPECT_NE(written.find(R"({"op":"wait","count":1})"), std::string::npos) << written;
}

TEST(AppProgramWait, WaitsOnOtherPlacesAreAnotherCallWhereTheRunsPart) {
  const auto sets = std::make_shared<learn::WaitPlaceSets>();
  const auto second = sets->id({1}), third = sets->id({2});
  // From p = 8 on, each rank posts a third request and awaits it before the others.
  const auto program = [&](int r, int p) {
    std::vector<sim::Op> ops{sim::irecv_op((r + p - 1) % p), sim::isend_op((r + 1) % p, 64)};
    if (p >= 8) ops.push_back(sim::isend_op((r + 2) % p, 64));
    auto wait = sim::wait_op(1);
    wait.tag = p >= 8 ? third : second;
    ops.push_back(wait);
    ops.push_back(sim::wait_op(0));
    return ops;
  };
  auto runs = learn::testing::runs_of(program, {2, 4, 8, 16});
  for (auto& run : runs) run.sequences.wait_sets = sets;
  const auto why = learn::testing::refusal(runs);
  EXPECT_NE(why.find("MPI_Isend to"), std::string::npos) << why;
  EXPECT_NE(why.find("MPI_Wait of the requests at places 1 (0 the oldest)"), std::string::npos) << why;
}

}  // namespace
}  // namespace test_app_program_wait
