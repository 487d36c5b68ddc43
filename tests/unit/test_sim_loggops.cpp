// `--network loggops` on LogGOPSim's rules (docs/sim-loggops.md), every rank's end worked out
// by hand from the rules' terms. L = 5 µs, o = 1 µs, g = 2 µs, G = 1 ns/B, O = 0 and messages of
// s = 1001 bytes, so the s − 1 bytes after the first cost G·(s − 1) = 1 µs:
//   a send keeps its processor o = 1 µs and the next send waits gap = g + (s−1)·G = 3 µs;
//   its message reaches the receiver o + L = 6 µs after the send starts;
//   the receiver's processor handles it for r = o + (s−1)·max(O, G) = 2 µs, its next incoming
//   message waiting the same gap; so a message is received hop = o + L + r = 8 µs after its send
//   starts when nothing is in the way.
// The same schedules, as GOAL, give LogGOPSim's times (bench/loggopsim_compare.py).
#include <gtest/gtest.h>

#include <string>

#include <fmt/format.h>

#include "sim/kernel/kernel.hpp"
#include "sim/network/loggops.hpp"
#include "sim/program/generators.hpp"
#include "sim/program/goal.hpp"
#include "sim_program.hpp"

// The file's own names, apart from other test files' when a unity build (AUGUR_UNITY) joins them.
namespace test_sim_loggops {
namespace {

using namespace augur::sim;
using augur_test::program;

namespace {

constexpr double us = 1e-6, s = 1001;
constexpr double o = 1 * us, L = 5 * us, g = 2 * us, G = 1e-9;
constexpr double gap = g + (s - 1) * G, r = o + (s - 1) * G, hop = o + L + r;

LogGOPSNetwork loggops(const std::string& extra = "") {
  return LogGOPSNetwork(parse_loggops("L=5us,o=1us,g=2us,G=1ns,O=0" + extra));
}

void expect_ends(const Result& result, const std::vector<double>& expected) {
  ASSERT_EQ(result.ranks.size(), expected.size());
  for (std::size_t rank = 0; rank < expected.size(); ++rank)
    EXPECT_NEAR(result.ranks[rank].finish, expected[rank], 1e-15) << "rank " << rank;
}

// Rank 0 sends three messages down the chain 0 → 1 → 2 → 3; each rank forwards each as it comes.
FlatProgram pipeline() {
  std::vector<std::vector<Op>> bodies(4);
  for (int k = 0; k < 3; ++k) {
    bodies[0].push_back(send_op(1, s, k));
    for (int rank = 1; rank < 4; ++rank) {
      bodies[rank].push_back(recv_op(rank - 1, k));
      if (rank < 3) bodies[rank].push_back(send_op(rank + 1, s, k));
    }
  }
  return program(bodies);
}

// The same as GOAL, each operation requiring the one before.
std::string pipeline_goal() {
  std::string text = "num_ranks 4\n";
  for (int rank = 0; rank < 4; ++rank) {
    text += "rank " + std::to_string(rank) + " {\n";
    std::string last;
    for (int k = 0; k < 3; ++k)
      for (const bool receive : {true, false}) {
        if ((receive && rank == 0) || (!receive && rank == 3)) continue;
        const std::string label = fmt::format("{}{}", receive ? "r" : "s", k);
        text += label + (receive ? ": recv 1001b from " + std::to_string(rank - 1) : ": send 1001b to " + std::to_string(rank + 1)) +
                " tag " + std::to_string(k) + "\n";
        if (!last.empty()) text += label + " requires " + last + "\n";
        last = label;
      }
    text += "}\n";
  }
  return text;
}

Result generated(const std::string& collective, const std::vector<std::string>& args) {
  auto gen = generate(collective, args);
  Options options;
  options.algorithms = gen.algorithms;
  return simulate(*gen.program, loggops(), options);
}

}  // namespace

// A halo on four ranks in a line: post both receives, send left then right, compute 10 µs,
// wait. Messages that arrive during the compute are handled when it ends, one gap apart.
TEST(SimLogGOPSRules, HaloExchange) {
  const double compute = 10 * us;
  std::vector<std::vector<Op>> bodies(4);
  for (int rank = 0; rank < 4; ++rank) {
    for (int peer : {rank - 1, rank + 1})
      if (peer >= 0 && peer < 4) bodies[rank].push_back(irecv_op(peer));
    for (int peer : {rank - 1, rank + 1})
      if (peer >= 0 && peer < 4) bodies[rank].push_back(isend_op(peer, s));
    bodies[rank].push_back(compute_op(compute));
    bodies[rank].push_back(wait_op());
  }
  const double end_one = o + compute + r;              // one send, one message (arrived at 6 or 9)
  const double end_two = gap + o + compute + gap + r;  // two sends; the second message a gap after the first
  expect_ends(simulate(program(bodies), loggops()), {end_one, end_two, end_two, end_one});
}

// Each send starts a gap after the previous one; each middle rank forwards at the pace of the gap.
TEST(SimLogGOPSRules, EagerPipeline) {
  const std::vector<double> ends{2 * gap + o, hop + 2 * gap + o, 2 * hop + 2 * gap + o, 3 * hop + 2 * gap};
  expect_ends(simulate(pipeline(), loggops()), ends);
  expect_ends(simulate(*parse_goal(pipeline_goal(), "pipeline.goal"), loggops()), ends);
}

// Above S = 1000 bytes a send is done when its receive takes the message: when the receiver's
// processor takes it, or when the receive is posted if that is later; the sender then goes on.
// Rank 1 receives message 0 at hop and forwards it; rank 2 takes it at t1 = hop + (o + L), which
// releases rank 1, whose receive takes message 1 (handled while it waited) and releases rank 0.
// Rank 2 forwards at t1 + r; rank 3 takes that at t2 = t1 + hop, releasing rank 2 and, through its
// receive, rank 1 and then rank 0 (all at t2). Rank 2 sends message 1 at t2 (taken at t2 + o + L),
// handles rank 1's message 2 over t2 + o + L … + r, then sends it, taken at t3 = t2 + o + L + r + o + L.
TEST(SimLogGOPSRules, RendezvousPipeline) {
  const auto net = loggops(",S=1000");
  const double t1 = hop + o + L, t2 = t1 + hop, t3 = t2 + (o + L) + r + (o + L);
  // Rank 1's last send is released when rank 2 posts its receive, at t2 + o + L: queued before
  // the handling of the message it waits for began (LogGOPSim's order), in the sequence as in GOAL.
  const std::vector<double> ends{t2, t2 + o + L, t3, t3 + r};
  expect_ends(simulate(pipeline(), net), ends);
  expect_ends(simulate(*parse_goal(pipeline_goal(), "pipeline.goal"), net), ends);
}

// A token around four ranks: each hop is received hop = o + L + r after its send starts.
TEST(SimLogGOPSRules, TokenRing) {
  const auto p = program({{send_op(1, s), recv_op(3)}, {recv_op(0), send_op(2, s)}, {recv_op(1), send_op(3, s)},
                          {recv_op(2), send_op(0, s)}});
  expect_ends(simulate(p, loggops()), {4 * hop, hop + o, 2 * hop + o, 3 * hop + o});
}

// MPICH's binomial broadcast from rank 0 on 8 ranks: the root sends to 4, 2, 1, a gap apart;
// rank 4 to 6 and 5, rank 2 to 3, rank 6 to 7.
TEST(SimLogGOPSRules, BinomialBroadcast) {
  const double at4 = hop, at2 = gap + hop, at1 = 2 * gap + hop;
  const double at6 = at4 + hop, at5 = at4 + gap + hop, at3 = at2 + hop, at7 = at6 + hop;
  expect_ends(generated("bcast", {"algorithm=binomial", "p=8", "bytes=1001"}),
              {2 * gap + o, at1, at2 + o, at3, at4 + gap + o, at5, at6 + o, at7});
}

// Recursive doubling on 8 ranks: three exchanges in step, each received hop after it starts
// (the next exchange's send waits for no gap: hop > gap).
TEST(SimLogGOPSRules, RecursiveDoublingAllreduce) {
  expect_ends(generated("allreduce", {"algorithm=rd", "p=8", "bytes=1001"}), std::vector<double>(8, 3 * hop));
}

// LogGOPSim counts the bytes after the first; an empty message costs none.
TEST(SimLogGOPSRules, BytesAfterTheFirstAreCounted) {
  const auto net = loggops(",O=3ns");
  EXPECT_NEAR(net.overhead(1001), o + 1000 * 3e-9, 1e-18);
  EXPECT_NEAR(net.gap(1001), g + 1000 * G, 1e-18);
  EXPECT_NEAR(net.receiver(1001), o + 1000 * 3e-9, 1e-18);  // max(O, G)
  EXPECT_NEAR(net.overhead(0), o, 1e-18);
  EXPECT_TRUE(loggops(",S=0").waits_for_receiver(augur::timing::SendMode::standard, 1));
  EXPECT_FALSE(loggops(",S=0").waits_for_receiver(augur::timing::SendMode::standard, 0));
  EXPECT_FALSE(loggops().waits_for_receiver(augur::timing::SendMode::standard, 1 << 30));
}

}  // namespace
}  // namespace test_sim_loggops
