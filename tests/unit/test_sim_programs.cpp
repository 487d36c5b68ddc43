// The farm, pipeline and array generators on a toy LogGOPS network whose times can be followed
// by hand: o = 1 µs, g = 1 µs, L = 10 µs, no per-byte cost, so a message is received
// T = o + L + o = 12 µs after its send starts and a blocking send returns o = 1 µs after it starts;
// its receiver's processor handles it over the last o, whether or not its receive is posted.
#include <gtest/gtest.h>

#include "sim/kernel/kernel.hpp"
#include "sim/network/loggops.hpp"
#include "sim/program/generators.hpp"

// The file's own names, apart from other test files' when a unity build (AUGUR_UNITY) joins them.
namespace test_sim_programs {
namespace {

using namespace augur::sim;

namespace {

constexpr double us = 1e-6;

Result run(const std::string& name, const std::vector<std::string>& args) {
  LogGOPSNetwork net(parse_loggops("L=10us,o=1us,g=1us,G=0"));
  auto g = generate(name, args);
  return simulate(*g.program, net);
}

}  // namespace

TEST(SimPrograms, PipelineTimesFollowTheItemsThroughTheStages) {
  // Stage 0 computes item 1 over 0–5 and sends (5–6), item 2 over 6–11 (send 11–12).
  // Stage 1 receives item 1 at 5 + 12 = 17, computes to 22, sends (arrives at 34); item 2 arrived
  // at 23, its receive posted at 23 ends at 24, computed to 29, sent at 29 (arrives at 41).
  // Stage 2 computes item 1 over 34–39, receives item 2 at 41 and computes it over 41–46.
  auto r = run("pipeline", {"p=3", "items=2", "bytes=0", "compute=5us"});
  EXPECT_NEAR(r.predicted, 46 * us, 1e-12);
  EXPECT_NEAR(r.ranks[0].finish, 12 * us, 1e-12);
  EXPECT_NEAR(r.ranks[1].finish, 30 * us, 1e-12);
  EXPECT_NEAR(r.ranks[2].compute, 10 * us, 1e-12);
  EXPECT_EQ(r.messages, 4u);
}

TEST(SimPrograms, FarmHandsOutTasksAndCollectsResults) {
  // Two workers, four tasks of 5 µs. The master sends tasks 0 and 1 (0–1, 1–2; received at 12
  // and 13). Worker 1 computes 12–17, its result is received at 29; worker 2's reaches the master
  // at 29 and is handled over 29–30, before the master sends task 2 (30–31, received at 42); its
  // receive then takes worker 2's result at once and it sends task 3 (31–32, received at 43).
  // Worker 1 computes task 2 over 42–47 and sends (47–48), its result received at 59; worker 2
  // computes task 3 over 43–48, its result reaches the master at 59 and is handled over 59–60.
  auto r = run("farm", {"p=3", "items=4", "bytes=0", "compute=5us"});
  EXPECT_NEAR(r.predicted, 60 * us, 1e-12);
  EXPECT_NEAR(r.ranks[1].finish, 48 * us, 1e-12);
  EXPECT_NEAR(r.ranks[2].finish, 49 * us, 1e-12);
  EXPECT_NEAR(r.ranks[1].compute, 10 * us, 1e-12);
  EXPECT_EQ(r.messages, 8u);
}

TEST(SimPrograms, FarmSharesUnevenTasksRoundRobin) {
  auto r = run("farm", {"p=4", "items=5", "bytes=0", "compute=5us"});
  EXPECT_NEAR(r.ranks[1].compute, 10 * us, 1e-12);  // tasks 0 and 3
  EXPECT_NEAR(r.ranks[2].compute, 10 * us, 1e-12);  // tasks 1 and 4
  EXPECT_NEAR(r.ranks[3].compute, 5 * us, 1e-12);   // task 2
  EXPECT_EQ(r.messages, 10u);
  EXPECT_TRUE(r.warnings.empty());
}

TEST(SimPrograms, ArrayIterationIsComputeThenTwoBorderExchanges) {
  // Everyone computes 5 µs, then the right-going borders arrive 12 µs later and the left-going
  // ones, sent when those arrive, 12 µs after that: 29 µs per iteration, in step.
  auto r = run("array", {"p=3", "iterations=2", "bytes=0", "compute=5us"});
  EXPECT_NEAR(r.predicted, 58 * us, 1e-12);
  EXPECT_NEAR(r.ranks[0].finish, 58 * us, 1e-12);
  EXPECT_EQ(r.messages, 8u);  // per iteration, 2 borders each way
}

TEST(SimPrograms, ArrayOfAMillionRanksSharesItsBodies) {
  auto g = generate("array", {"p=1048576", "iterations=1"});
  EXPECT_EQ(g.program->body_of(0).size(), 3u);
  EXPECT_EQ(&g.program->body_of(1), &g.program->body_of(524288));
}

TEST(SimPrograms, OneRankProgramsOnlyCompute) {
  EXPECT_NEAR(run("pipeline", {"p=1", "items=3", "compute=5us"}).predicted, 15 * us, 1e-12);
  EXPECT_NEAR(run("array", {"p=1", "iterations=3", "compute=5us"}).predicted, 15 * us, 1e-12);
  EXPECT_THROW(generate("farm", {"p=1"}), std::invalid_argument);
}

TEST(SimPrograms, BadParametersAreNamed) {
  EXPECT_THROW(generate("farm", {"p=4", "root=1"}), std::invalid_argument);
  EXPECT_THROW(generate("pipeline", {"p=4", "items=0"}), std::invalid_argument);
  EXPECT_THROW(generate("array", {"p=4", "compute=fast"}), std::invalid_argument);
  EXPECT_NE(describe_generators().find("farm"), std::string::npos);
}

}  // namespace
}  // namespace test_sim_programs
