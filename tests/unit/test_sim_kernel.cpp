// The simulator's kernel on a toy model whose every cost is a round number of microseconds, so
// each expected time below is worked out by hand from the timing rules (src/timing/rules.hpp).
#include <gtest/gtest.h>

#include "sim/kernel/kernel.hpp"
#include "sim_program.hpp"
#include "sim/network/loggops.hpp"

// The file's own names, apart from other test files' when a unity build (AUGUR_UNITY) joins them.
namespace test_sim_kernel {
namespace {

using namespace augur;
using namespace augur::sim;
using augur_test::program;
using augur_test::toy;

namespace {

constexpr double us = 1e-6;

struct Fixture : ::testing::Test {
  model::Model model = toy();
  ModelNetwork net{model, model::Bound::avg};
};

}  // namespace

using SimKernel = Fixture;

TEST_F(SimKernel, EagerMessageFollowsTheHalvesRule) {
  auto p = program({{compute_op(5 * us), send_op(1, 1000)}, {recv_op(0)}});
  auto r = simulate(p, net);
  // Sender: 5 µs of compute, then send 2 + 1 = 3 µs.
  EXPECT_DOUBLE_EQ(r.ranks[0].finish, 8 * us);
  // Receiver posted at 0: the message left at 5 and takes 10 + 1000/100 = 20 µs.
  EXPECT_DOUBLE_EQ(r.ranks[1].finish, 25 * us);
  EXPECT_DOUBLE_EQ(r.ranks[1].waiting, 24 * us);  // all but recvmin
  EXPECT_DOUBLE_EQ(r.predicted, 25 * us);
  EXPECT_EQ(r.operations.at("send").count, 1);
  EXPECT_EQ(r.operations.at("recv").bytes, 1000);
}

TEST_F(SimKernel, ASendersMessagesLeaveNoCloserThanItsLinkCarriesThem) {
  auto linked_model = toy();
  linked_model.network.bandwidth = 1e8;  // 1000 B hold the link for 10 µs
  ModelNetwork linked{linked_model, model::Bound::avg};
  auto p = program({{send_op(1, 1000), send_op(1, 1000)}, {recv_op(0), recv_op(0)}});
  const auto r = simulate(p, linked);
  EXPECT_DOUBLE_EQ(r.ranks[0].finish, 6 * us);  // the sender's own time is not held up
  // The second message leaves at 10 µs, when the link has carried the first, not at 3: 10 + 20.
  EXPECT_DOUBLE_EQ(r.ranks[1].finish, 30 * us);
  EXPECT_DOUBLE_EQ(simulate(p, net).ranks[1].finish, 23 * us);
}

TEST_F(SimKernel, RendezvousSenderWaitsForThePost) {
  auto p = program({{send_op(1, 8192)}, {compute_op(50 * us), recv_op(0)}});
  auto r = simulate(p, net);
  // Above the eager limit: the sender leaves ssend(8192) = 15.192 µs after the post at 50.
  EXPECT_DOUBLE_EQ(r.ranks[0].finish, (50 + 7 + 8.192) * us);
  // The transfer starts at the post: 50 + 10 + 81.92.
  EXPECT_DOUBLE_EQ(r.ranks[1].finish, (50 + 10 + 81.92) * us);
}

TEST_F(SimKernel, WildcardTakesTheFirstArrivalInSimulatedTime) {
  // Rank 0 sends first but a large message (transit 50 µs); rank 1 sends 5 µs later a small
  // one (10.1 µs): rank 2's first wildcard receive gets rank 1's.
  auto p = program({{send_op(2, 4000)}, {compute_op(5 * us), send_op(2, 10)}, {recv_op(kAny), recv_op(kAny)}});
  TraceRecorder trace(3, {});
  auto r = simulate(p, net, {}, &trace);
  const auto& recvs = trace.trace().ranks[2].recvs;
  ASSERT_EQ(recvs.size(), 2u);
  EXPECT_EQ(recvs[0].src, 1);
  EXPECT_EQ(recvs[1].src, 0);
  EXPECT_DOUBLE_EQ(recvs[0].end, (5 + 10.1) * us);
  EXPECT_DOUBLE_EQ(r.ranks[2].finish, 50 * us);
}

TEST_F(SimKernel, MessagesOfOneSenderDoNotOvertake) {
  // The small second message would arrive first, but a receive from rank 0 gets the first sent.
  auto p = program({{send_op(1, 4000), send_op(1, 10)}, {recv_op(0), recv_op(0)}});
  TraceRecorder trace(2, {});
  simulate(p, net, {}, &trace);
  const auto& recvs = trace.trace().ranks[1].recvs;
  ASSERT_EQ(recvs.size(), 2u);
  EXPECT_EQ(recvs[0].bytes, 4000u);
  EXPECT_EQ(recvs[1].bytes, 10u);
}

// The model's network orders per receiver too. Rank 0's 4,000 bytes to rank 1 arrive after
// 10 + 40 = 50 µs; its 10 bytes to rank 2, sent when the first send returns at 2 + 4 = 6 µs
// (and leaving its link by then), arrive 10.1 µs later, at 16.1 µs, before rank 3's 10 bytes
// sent at 10 µs (20.1 µs): rank 2's wildcard receive takes rank 0's, ending at 16.1 µs.
TEST_F(SimKernel, AMessageToAnotherReceiverDoesNotWaitForAnEarlierOne) {
  auto p = program({{send_op(1, 4000), send_op(2, 10)}, {recv_op(0)}, {recv_op(kAny), recv_op(kAny)},
                    {compute_op(10 * us), send_op(2, 10)}});
  TraceRecorder trace(4, {});
  simulate(p, net, {}, &trace);
  const auto& recvs = trace.trace().ranks[2].recvs;
  ASSERT_EQ(recvs.size(), 2u);
  EXPECT_EQ(recvs[0].src, 0);
  EXPECT_NEAR(recvs[0].end, 16.1 * us, 1e-15);
  EXPECT_EQ(recvs[1].src, 3);
}

TEST_F(SimKernel, NonblockingExchangeWaitsForBoth) {
  auto body = [](int peer) { return std::vector<Op>{irecv_op(peer), isend_op(peer, 100), wait_op()}; };
  auto p = program({body(1), body(0)});
  auto r = simulate(p, net);
  // irecv1 0.25 µs, isend1 0.5: the send starts at 0.25; the message takes 10 + 1 µs and
  // arrives at 11.25; the send itself completes at 0.25 + 2.1.
  EXPECT_DOUBLE_EQ(r.ranks[0].finish, 11.25 * us);
  EXPECT_DOUBLE_EQ(r.ranks[1].finish, 11.25 * us);
  EXPECT_EQ(r.operations.at("wait").count, 2);
  EXPECT_DOUBLE_EQ(r.operations.at("wait").waiting, 2 * (11.25 - 0.75) * us);
}

TEST_F(SimKernel, AllToAllCollectiveLeavesAtTheLatestStartPlusItsTime) {
  FlatProgram p(4);
  const auto allreduce = p.intern("allreduce");
  for (int r = 0; r < 4; ++r) p.assign(r, r, p.add_body({compute_op(r * us), collective_op(allreduce, 800)}));
  auto res = simulate(p, net);
  // T = 5·log2(4) + 800/100 = 18 µs after the last arrival at 3 µs.
  for (int r = 0; r < 4; ++r) {
    EXPECT_DOUBLE_EQ(res.ranks[r].finish, 21 * us);
    EXPECT_NEAR(res.ranks[r].waiting, (3 - r) * us, 1e-15);
  }
}

TEST_F(SimKernel, RootedCollectiveFollowsRoles) {
  FlatProgram p(3);
  const auto bcast = p.intern("bcast");
  p.assign(0, 0, p.add_body({compute_op(30 * us), collective_op(bcast, 8, 1)}));
  p.assign(1, 1, p.add_body({compute_op(10 * us), collective_op(bcast, 8, 1)}));
  p.assign(2, 2, p.add_body({collective_op(bcast, 8, 1)}));
  auto r = simulate(p, net);
  EXPECT_DOUBLE_EQ(r.ranks[1].finish, 30 * us);  // the root: its start + 20
  EXPECT_DOUBLE_EQ(r.ranks[0].finish, 30 * us);  // max(own start 30, root start + 20)
  EXPECT_DOUBLE_EQ(r.ranks[2].finish, 30 * us);
}

TEST_F(SimKernel, SendrecvRingEndsWhenItsMessageArrives) {
  auto ring = FlatProgram(3);
  for (int r = 0; r < 3; ++r) ring.assign(r, r, ring.add_body({sendrecv_op((r + 1) % 3, (r + 2) % 3, 100)}));
  auto res = simulate(ring, net);
  // Every message starts at 0 and arrives 11 µs later; the send half takes 2.1 µs.
  for (int r = 0; r < 3; ++r) EXPECT_DOUBLE_EQ(res.ranks[r].finish, 11 * us);
  EXPECT_EQ(res.operations.at("sendrecv").bytes, 600);
}

TEST_F(SimKernel, DeadlockNamesTheBlockedRanksAndOperations) {
  auto p = program({{recv_op(1, 3)}, {recv_op(0, 4)}, {}});
  try {
    simulate(p, net);
    FAIL() << "expected a deadlock";
  } catch (const DeadlockError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("2 of 3 ranks"), std::string::npos) << what;
    EXPECT_NE(what.find("rank 0: recv from rank 1 (tag 3)"), std::string::npos) << what;
    EXPECT_NE(what.find("rank 1: recv from rank 0 (tag 4)"), std::string::npos) << what;
  }
}

TEST_F(SimKernel, CollectiveMissingAMemberIsADeadlock) {
  FlatProgram p(2);
  const auto barrier = p.intern("barrier");
  p.assign(0, 0, p.add_body({collective_op(barrier, 0)}));
  p.assign(1, 1, p.add_body({}));
  EXPECT_THROW(simulate(p, net), DeadlockError);
}

TEST_F(SimKernel, UnreceivedMessagesAreReported) {
  auto r = simulate(program({{send_op(1, 10)}, {}}), net);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("never received"), std::string::npos);
}

TEST_F(SimKernel, SameInputSameOutputToTheBit) {
  FlatProgram p(16);
  const auto allreduce = p.intern("allreduce");
  for (int r = 0; r < 16; ++r)
    p.assign(r, r,
             p.add_body({compute_op((r % 5) * us), isend_op((r + 3) % 16, 64 * r), irecv_op(kAny), wait_op(),
                         collective_op(allreduce, 8), sendrecv_op((r + 1) % 16, (r + 15) % 16, 32)}));
  auto a = simulate(p, net), b = simulate(p, net);
  for (int r = 0; r < 16; ++r) EXPECT_EQ(a.ranks[r].finish, b.ranks[r].finish);
  EXPECT_EQ(a.events, b.events);
}

TEST(SimLogGOPS, SendsQueueBehindTheGap) {
  LogGOPSNetwork net(parse_loggops("L=5us,o=1us,g=2us,G=0,O=0"));
  auto p = FlatProgram(4);
  p.assign(0, 0, p.add_body({send_op(1, 8), send_op(2, 8), send_op(3, 8)}));
  p.assign(1, 3, p.add_body({recv_op(0)}));
  auto r = simulate(p, net);
  // Each send starts g = 2 µs after the previous one started (0, 2, 4), though the call began at
  // 1 and 3, and its message is received o + L + o = 7 µs after that start.
  const double o = 1 * us, L = 5 * us, g = 2 * us;
  EXPECT_DOUBLE_EQ(r.ranks[0].finish, 2 * g + o);
  EXPECT_DOUBLE_EQ(r.ranks[1].finish, o + L + o);
  EXPECT_DOUBLE_EQ(r.ranks[2].finish, g + o + L + o);
  EXPECT_DOUBLE_EQ(r.ranks[3].finish, 2 * g + o + L + o);
}

// MPI orders a sender's messages per receiver only. On the LogGOPS terms derived from the toy
// model (o(n) = g(n) = send(n) = 2 + n/1000, T(n) = recv(n) = 10 + n/100, r = recvmin = 1 µs),
// a message's time depends on its size. Rank 0 sends 4000 bytes to rank 3 (6 µs), then 8 to rank
// 2 from 6 µs: T(8) = 10.08 µs, so they reach rank 2 at 16.08, long before the large message
// reaches rank 3 at T(4000) = 50 µs, behind which they do not wait. Rank 1's 8 bytes, sent at
// 20 µs, arrive at 30.08: rank 2's first wildcard receive takes rank 0's.
TEST(SimLogGOPS, AMessageToAnotherReceiverDoesNotWaitForAnEarlierOne) {
  const auto model = toy();
  LogGOPSNetwork net(model, model::Bound::avg);
  auto p = program({{send_op(3, 4000), send_op(2, 8)}, {compute_op(20 * us), send_op(2, 8)},
                    {recv_op(kAny), recv_op(kAny)}, {recv_op(0)}});
  TraceRecorder trace(4, {});
  auto r = simulate(p, net, {}, &trace);
  const auto& recvs = trace.trace().ranks[2].recvs;
  ASSERT_EQ(recvs.size(), 2u);
  EXPECT_EQ(recvs[0].src, 0);
  EXPECT_NEAR(recvs[0].end, 16.08 * us, 1e-15);
  EXPECT_EQ(recvs[1].src, 1);
  EXPECT_NEAR(recvs[1].end, 30.08 * us, 1e-15);
  EXPECT_NEAR(r.ranks[3].finish, 50 * us, 1e-15);
}

// To one receiver they stay in order: the 8 bytes (16.08 µs on their own) are delivered behind
// the 4000 (50 µs), so a wildcard receive takes the large message first.
TEST(SimLogGOPS, MessagesToOneReceiverStayInTheOrderSent) {
  const auto model = toy();
  LogGOPSNetwork net(model, model::Bound::avg);
  auto p = program({{send_op(1, 4000), send_op(1, 8)}, {recv_op(kAny), recv_op(kAny)}});
  TraceRecorder trace(2, {});
  simulate(p, net, {}, &trace);
  const auto& recvs = trace.trace().ranks[1].recvs;
  ASSERT_EQ(recvs.size(), 2u);
  EXPECT_EQ(recvs[0].bytes, 4000u);
  EXPECT_EQ(recvs[1].bytes, 8u);
}

TEST(SimLogGOPS, CollectivesRunAsMessages) {
  LogGOPSNetwork net(parse_loggops("L=5us,o=1us,g=2us"));
  FlatProgram p(4);
  p.add_body({collective_op(p.intern("barrier"), 0)});
  auto r = simulate(p, net);  // dissemination: two rounds of 7 µs
  for (int i = 0; i < 4; ++i) EXPECT_DOUBLE_EQ(r.ranks[i].finish, 14 * us);
  EXPECT_EQ(r.operations.at("barrier").count, 4);
}

}  // namespace
}  // namespace test_sim_kernel
