// A task farm in the program section: a server that answers whoever asked ("reply") and workers
// whose loop ends when the server's stop tag arrives ("until_tag"), laid out with a jump back,
// read and written, its errors named, and simulated with the tasks dealt as the run decides.
#include <gtest/gtest.h>

#include <string>

#include "app/app_model.hpp"
#include "app_program_text.hpp"
#include "app/app_program_json.hpp"
#include "sim/kernel/kernel.hpp"
#include "sim/network/loggops.hpp"
#include "sim/program/app_program.hpp"

// The file's own names, apart from other test files' when a unity build (AUGUR_UNITY) joins them.
namespace test_app_program_until {
namespace {

using namespace augur;
using namespace augur::test;
using augur::test::error_of;  // over another file's error_of in a unity build

namespace {

// Rank 0 hands out `tasks` tasks (tag 3) to whoever asks and then the stop (tag 4) to each
// worker; each worker asks once, then computes 100 µs per task and returns it.
std::string farm(int tasks) {
  const auto n = std::to_string(tasks);
  return R"x({"groups": [
    {"ranks": {"first": "0", "last": "0"}, "body": [
      {"repeat": ")x" + n + R"x(", "body": [
        {"op": "recv", "peer": "any", "tag": -1}, {"op": "send", "peer": "reply", "bytes": "8", "tag": 3}]},
      {"repeat": "p - 1", "body": [
        {"op": "recv", "peer": "any", "tag": -1}, {"op": "send", "peer": "reply", "bytes": "8", "tag": 4}]}]},
    {"ranks": {"first": "1", "last": "p - 1"}, "body": [
      {"op": "send", "peer": {"fixed": "0"}, "bytes": "16", "tag": 1},
      {"until_tag": 4, "mean_times": ")x" + n + R"x( / (p - 1)", "body": [
        {"op": "recv", "peer": {"fixed": "0"}, "tag": -1},
        {"compute": "100e-6"},
        {"op": "send", "peer": {"fixed": "0"}, "bytes": "16", "tag": 2}]}]}]})x";
}

}  // namespace

TEST(AppProgramUntil, TheLoopIsItsBodyOnceAndAJumpBackItsReceiveJumpsOut) {
  const auto program = sim::instantiate(parsed(farm(5)), 3);
  const auto worker = ops_of(*program, 2);
  ASSERT_EQ(worker.size(), 5u);  // send, recv, compute, send, jump
  EXPECT_EQ(worker[1].kind, sim::OpKind::recv);
  EXPECT_TRUE(worker[1].flags & sim::kExitOnTag);
  EXPECT_EQ(worker[1].tag2, 4);
  EXPECT_EQ(worker[1].value, 5);  // past the jump
  EXPECT_EQ(worker[4].kind, sim::OpKind::jump);
  EXPECT_EQ(worker[4].value, 1);
  const auto server = ops_of(*program, 0);
  ASSERT_EQ(server.size(), 2u * (5 + 2));
  EXPECT_EQ(server[1].peer, sim::kLastSource);
  EXPECT_EQ(server[13].tag, 4);
}

// Five tasks of 100 µs over two workers: every task is computed once, the workers together
// compute 500 µs, one of them three tasks; every message is received.
TEST(AppProgramUntil, WorkersTakeTasksUntilTheStopTagAndTheServerAnswersWhoeverAsked) {
  const auto program = sim::instantiate(parsed(farm(5)), 3);
  sim::LogGOPSNetwork net(sim::parse_loggops("L=10us,o=1us,g=1us,G=0"));
  const auto r = sim::simulate(*program, net);
  EXPECT_NEAR(r.ranks[1].compute + r.ranks[2].compute, 500e-6, 1e-12);
  EXPECT_NEAR(std::max(r.ranks[1].compute, r.ranks[2].compute), 300e-6, 1e-12);
  EXPECT_EQ(r.messages, 2u * (5 + 2));
  EXPECT_GT(r.predicted, 300e-6);
  EXPECT_LT(r.predicted, 400e-6);
  // One worker: the server answers it alone, and it computes every task.
  const auto alone = sim::simulate(*sim::instantiate(parsed(farm(5)), 2), net);
  EXPECT_NEAR(alone.ranks[1].compute, 500e-6, 1e-12);
}

TEST(AppProgramUntil, IsWrittenAndReadBackWithItsTagMeanCountAndReplies) {
  const auto app = parsed(farm(7));
  const auto json = app::program_to_json(*app.program);
  const auto& loop = json["groups"][1]["body"][1];
  EXPECT_EQ(loop["until_tag"], 4);
  EXPECT_EQ(loop["mean_times"], "7 / (p - 1)");
  EXPECT_EQ(json["groups"][0]["body"][0]["body"][1]["peer"], "reply");
  const auto again = app::parse_app_model(app_text(json.dump()), "again.json");
  EXPECT_EQ(again.program->groups[1].body[1].kind, app::ProgramNode::Kind::until);
  EXPECT_EQ(again.program->groups[1].body[1].tag, 4);
  EXPECT_EQ(again.program->groups[0].body[0].body[1].peer.kind, app::PeerRule::Kind::reply);
}

TEST(AppProgramUntil, BadLoopsAndRepliesNameTheLineFieldAndReason) {
  EXPECT_EQ(error_of(all_ranks(R"([
    {"until_tag": 4, "body": [{"compute": "1"}]}])")),
            "app.json:6: program.groups[0].body[0].body[0]: the first operation of an until_tag loop must be a blocking "
            "recv: the receive whose tag ends the loop");
  EXPECT_EQ(error_of(all_ranks(R"([
    {"until_tag": -1, "body": [{"op": "recv", "peer": {"fixed": "0"}}]}])")).substr(0, 52),
            "app.json:6: program.groups[0].body[0].until_tag: mus");
  EXPECT_EQ(error_of(all_ranks(R"([
    {"op": "recv", "peer": "reply"}])")),
            "app.json:6: program.groups[0].body[0].peer: reply is a destination: the source of the latest receive, "
            "answered");
  // A receive from no one would never end the loop.
  const auto none = parsed(all_ranks(R"([{"until_tag": 1, "body": [{"op": "recv", "peer": "none"}]}])"));
  EXPECT_THROW(sim::instantiate(none, 2), std::invalid_argument);
}

}  // namespace
}  // namespace test_app_program_until
