// GOAL schedules (LogGOPSim's format) read, run as dependency graphs and written back. Every
// expected time is worked out by hand with L = 5 µs, o = 1 µs, g = 1 µs, G = O = 0, where
// augur's loggops network and LogGOPSim agree (docs/goal-format.md): a message costs its
// receiver 2o + L = 7 µs after its send starts, its sender o.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "sim/kernel/kernel.hpp"
#include "sim/network/loggops.hpp"
#include "sim/program/goal.hpp"
#include "sim/program/schedule_lexer.hpp"
#include "sim_program.hpp"

// The file's own names, apart from other test files' when a unity build (AUGUR_UNITY) joins them.
namespace test_sim_goal {
namespace {

using namespace augur::sim;

namespace {

constexpr double us = 1e-6;

LogGOPSNetwork loggops(double g = 1 * us) {
  LogGOPSParams p;
  p.L = 5 * us;
  p.o = 1 * us;
  p.g = g;
  return LogGOPSNetwork(p);
}

Result run(std::string_view text, const Network& net) { return simulate(*parse_goal(text, "test.goal"), net); }

std::string error_of(std::string_view text) {
  try {
    parse_goal(text, "bad.goal");
  } catch (const ScheduleError& e) {
    return e.what();
  }
  return "no error";
}

// Schedgen's binomial broadcast: rank r sends to r + 2^k for every 2^k > r once it has received.
std::string binomial_broadcast(int n) {
  std::string text = "num_ranks " + std::to_string(n) + "\n";
  for (int r = 0; r < n; ++r) {
    text += "rank " + std::to_string(r) + " {\n";
    int label = 0;
    int mask = 1;
    while (mask <= r) mask <<= 1;
    if (r > 0) text += "l0: recv 1b from " + std::to_string(r - mask / 2) + " tag 0\n";
    for (int step = mask; r + step < n; step <<= 1) {
      text += fmt::format("l{}: send 1b to {} tag 0\n", ++label, r + step);
      if (r > 0) text += fmt::format("l{} requires l0\n", label);
    }
    text += "}\n";
  }
  return text;
}

}  // namespace

TEST(SimGoal, OneMessageCostsTwoOverheadsAndTheLatency) {
  const auto r = run(R"(num_ranks 2
// one message
rank 0 {
l1: send 8b to 1 tag 0
}
rank 1 {
l1: recv 8b from 0 tag 0 /* posted at once */
})",
                     loggops());
  EXPECT_DOUBLE_EQ(r.ranks[0].finish, 1 * us);  // o
  EXPECT_DOUBLE_EQ(r.predicted, 7 * us);        // o + L + o
  EXPECT_EQ(r.messages, 1u);
}

TEST(SimGoal, ARingPassesOneTokenRoundInFourHops) {
  const auto r = run(R"(num_ranks 4
rank 0 {
l0: send 8b to 1 tag 0
l1: recv 8b from 3 tag 0
}
rank 1 {
l0: recv 8b from 0 tag 0
l1: send 8b to 2 tag 0
l1 requires l0
}
rank 2 {
l0: recv 8b from 1 tag 0
l1: send 8b to 3 tag 0
l1 requires l0
}
rank 3 {
l1 requires l0
l0: recv 8b from 2 tag 0
l1: send 8b to 0 tag 0
})",
                     loggops());
  EXPECT_DOUBLE_EQ(r.ranks[1].finish, 8 * us);  // received at 7, its send's o
  EXPECT_DOUBLE_EQ(r.ranks[3].finish, 22 * us);
  EXPECT_DOUBLE_EQ(r.predicted, 28 * us);  // 4 hops of 7 µs
}

// The root's three sends are independent vertices: they go out one o apart, as LogGOPSim sends them.
TEST(SimGoal, BinomialBroadcastOnEightRanks) {
  const auto r = run(binomial_broadcast(8), loggops());
  const double expected[] = {3, 9, 9, 15, 9, 15, 15, 21};
  for (int rank = 0; rank < 8; ++rank) EXPECT_DOUBLE_EQ(r.ranks[rank].finish, expected[rank] * us) << rank;
  EXPECT_DOUBLE_EQ(r.predicted, 21 * us);
  EXPECT_EQ(r.messages, 7u);
}

// Two rounds: each round's send and receive wait for the previous round's receive.
TEST(SimGoal, DisseminationBarrierTakesTwoRounds) {
  std::string text = "num_ranks 4\n";
  for (int r = 0; r < 4; ++r)
    text += "rank " + std::to_string(r) + " {\nl0: send 1b to " + std::to_string((r + 1) % 4) + " tag 0\nl1: recv 1b from " +
            std::to_string((r + 3) % 4) + " tag 0\nl2: send 1b to " + std::to_string((r + 2) % 4) + " tag 1\nl3: recv 1b from " +
            std::to_string((r + 2) % 4) + " tag 1\nl2 requires l1\nl3 requires l1\n}\n";
  const auto r = run(text, loggops());
  for (int rank = 0; rank < 4; ++rank) EXPECT_DOUBLE_EQ(r.ranks[rank].finish, 14 * us) << rank;
}

// irequires: the calc starts once the receive is posted; the message's overhead waits for it.
TEST(SimGoal, IrequiresStartsAfterTheStartRequiresAfterTheEnd) {
  const std::string head = "num_ranks 2\nrank 0 {\nl0: send 8b to 1 tag 0\n}\nrank 1 {\nl0: recv 8b from 0 tag 0\nl1: calc 10000\n";
  EXPECT_DOUBLE_EQ(run(head + "l1 irequires l0\n}\n", loggops()).predicted, 11 * us);  // calc 0..10, then o
  EXPECT_DOUBLE_EQ(run(head + "l1 requires l0\n}\n", loggops()).predicted, 17 * us);   // 7, then 10
}

// With g = 2 µs > o a rank's next send starts g after its previous one started, and its message
// leaves then (LogGOPSim's rule; LogGOPSim prints these eight times for this schedule).
TEST(SimGoal, AGapLongerThanTheOverheadDelaysTheNextSend) {
  const double o = 1 * us, L = 5 * us, g = 2 * us, hop = o + L + o;
  const auto r = run(binomial_broadcast(8), loggops(g));
  const double received1 = hop, received2 = g + hop, received4 = 2 * g + hop;  // the root sends at 0, g, 2g
  const double received3 = received1 + hop, received5 = received1 + g + hop, received6 = received2 + hop;
  const double expected[] = {2 * g + o, received1 + g + o, received2 + o, received3 + o, received4,
                             received5, received6, received3 + hop};
  for (int rank = 0; rank < 8; ++rank) EXPECT_DOUBLE_EQ(r.ranks[rank].finish, expected[rank]) << rank;
  EXPECT_DOUBLE_EQ(r.predicted, 21 * us);
}

TEST(SimGoal, WildcardsAndUnsortedRanksAreRead) {
  const auto p = parse_goal(R"(num_ranks 3
rank 2 {
a: send 4b to 0 tag 9 cpu 0 nic 0
}
rank 0 {
x: recv 4b from -1 tag -1
y: calc 1000 cpu 0
y requires x
}
)",
                            "w.goal");
  ASSERT_EQ(p->vertices().size(), 3u);
  EXPECT_EQ(p->vertices()[0].peer, kAny);
  EXPECT_EQ(p->vertices()[0].tag, kAny);
  EXPECT_EQ(p->vertices()[2].rank, 2);
  EXPECT_EQ(p->first_vertex(1), 2u);
  EXPECT_DOUBLE_EQ(simulate(*p, loggops()).predicted, 8 * us);
}

TEST(SimGoal, ErrorsNameTheFileLineAndReason) {
  EXPECT_EQ(error_of("num_ranks 1\nrank 0 {\nl1: calc 5\nl2: calc 5\nl1 requires l2\nl2 requires l1\n}\n"),
            "bad.goal:5: rank 0's dependencies form a cycle, so none of it can start: 'l1 requires l2' (line 5), "
            "'l2 requires l1' (line 6)");
  EXPECT_EQ(error_of("num_ranks 1\nrank 0 {\nl1: calc 5\n\nl1 requires nowhere\n}\n"),
            "bad.goal:5: rank 0 has no vertex labelled nowhere");
  EXPECT_EQ(error_of("num_ranks 2\nrank 0 {\nl1: send 5b to 2 tag 0\n}\n"),
            "bad.goal:3: a destination rank must be an integer from 0 to 1, not 2");
  EXPECT_EQ(error_of("rank 0 {\n}\n"), "bad.goal:1: a GOAL schedule starts with num_ranks N");
  EXPECT_EQ(error_of("num_ranks 1\nrank 0 {\nl1: calc 5\nl1: calc 6\n}\n"), "bad.goal:4: label l1 is defined twice in rank 0");
  EXPECT_EQ(error_of("num_ranks 1\nrank 0 {\nl1: wait 5\n}\n"), "bad.goal:3: expected send, recv or calc, found 'wait'");
  EXPECT_EQ(error_of("num_ranks 1\nrank 0 {\nl1: calc 5\n"), "bad.goal:2: rank 0's block is never closed with }");
}

TEST(SimGoal, AMessageNoOneReceivesIsADeadlockOfItsReceiver) {
  EXPECT_THROW(run("num_ranks 2\nrank 0 {\nl0: send 1b to 1 tag 3\n}\nrank 1 {\nl0: recv 1b from 0 tag 4\n}\n", loggops()),
               DeadlockError);
}

TEST(SimGoal, WrittenGoalReadsBackToTheSameRun) {
  const auto program = parse_goal(binomial_broadcast(16), "b.goal");
  std::ostringstream out;
  write_goal(*program, out);
  const auto again = parse_goal(out.str(), "again.goal");
  EXPECT_EQ(again->vertices().size(), program->vertices().size());
  EXPECT_EQ(again->dependency_total(), program->dependency_total());
  EXPECT_DOUBLE_EQ(simulate(*again, loggops()).predicted, simulate(*program, loggops()).predicted);
}

// A program of sequences becomes chains: the same run in both kernels.
TEST(SimGoal, ASequenceProgramWrittenAsGoalRunsTheSame) {
  const auto p = augur_test::program({{irecv_op(1), isend_op(1, 8), wait_op(), compute_op(5 * us), send_op(1, 64)},
                                      {irecv_op(0), isend_op(0, 8), wait_op(), recv_op(0)}});
  std::ostringstream out;
  write_goal(p, {}, out);
  const auto goal = parse_goal(out.str(), "chain.goal");
  const auto net = loggops();
  const auto sequence = simulate(p, net), graph = simulate(*goal, net);
  EXPECT_DOUBLE_EQ(sequence.predicted, 19 * us);  // exchange done at 7, compute to 12, 7 more
  EXPECT_DOUBLE_EQ(graph.predicted, sequence.predicted);
  for (int r = 0; r < 2; ++r) EXPECT_DOUBLE_EQ(graph.ranks[r].finish, sequence.ranks[r].finish) << r;
}

// The progress a long run reports counts the ranks whose every vertex is done: in a binomial
// broadcast the leaves finish as their message lands, so the count rises to every rank.
TEST(SimGoal, ProgressCountsTheRanksThatHaveFinished) {
  const auto program = parse_goal(binomial_broadcast(8), "bcast.goal");
  Options options;
  options.progress_every = 1;
  std::vector<int> finished;
  options.progress = [&](const Progress& p) {
    EXPECT_EQ(p.ranks, 8);
    finished.push_back(p.finished_ranks);
  };
  simulate(*program, loggops(), options);
  ASSERT_FALSE(finished.empty());
  EXPECT_TRUE(std::is_sorted(finished.begin(), finished.end()));
  EXPECT_EQ(finished.back(), 8);
  EXPECT_LT(finished.front(), 8);
}

}  // namespace
}  // namespace test_sim_goal
