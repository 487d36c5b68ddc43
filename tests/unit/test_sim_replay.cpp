// Trace replay: which requests a wait completes, and wildcard receives matched in simulated
// order (counting the matches that differ from the run's) or as recorded. Costs come from a toy
// model whose times are round numbers of microseconds, so each time below is worked by hand.
#include <gtest/gtest.h>

#include "sim/kernel/kernel.hpp"
#include "sim/program/replay.hpp"
#include "sim_program.hpp"

// The file's own names, apart from other test files' when a unity build (AUGUR_UNITY) joins them.
namespace test_sim_replay {
namespace {

using namespace augur;
using namespace augur::sim;
using augur_test::toy;

namespace {

constexpr double us = 1e-6;

// Builds a trace by hand, rank by rank, as the reverse profiler would have written it.
struct TraceBuilder {
  trace::Trace t;
  explicit TraceBuilder(int n) { t.ranks.resize(n); }
  void call(int rank, double begin, double end, std::string_view op) {
    t.ranks[rank].states.push_back({begin, end, t.intern(op), trace::StateKind::mpi});
  }
  void compute(int rank, double begin, double end) {
    t.ranks[rank].states.push_back({begin, end, 0, trace::StateKind::compute});
  }
  void send(int rank, double begin, double end, int to, std::uint64_t bytes) {
    call(rank, begin, end, "send");
    t.ranks[rank].sends.push_back({begin, to, 0, 0, bytes});
  }
  void recv(int rank, double begin, double end, int from, std::uint64_t bytes, std::uint8_t wildcard) {
    call(rank, begin, end, "recv");
    t.ranks[rank].recvs.push_back({begin, end, from, 0, 0, bytes, wildcard});
  }
};

// Rank 0 sends a large message first (transit 50 µs), rank 1 a small one 5 µs later (10.1 µs).
// In the run, rank 2's two wildcard receives got rank 0's first; in simulated time rank 1's
// message arrives first.
TraceBuilder arrival_order_differs() {
  TraceBuilder b(3);
  b.send(0, 0, 6 * us, 2, 4000);
  b.compute(1, 0, 5 * us);
  b.send(1, 5 * us, 7 * us, 2, 10);
  b.recv(2, 0, 50 * us, 0, 4000, trace::kAnySource);
  b.recv(2, 50 * us, 51 * us, 1, 10, trace::kAnySource);
  return b;
}

struct Replayed {
  Result result;
  std::vector<trace::RecvEvent> recvs;  // rank 2's, as simulated
};

Replayed run(const trace::Trace& t, Match match) {
  const auto model = toy();
  ModelNetwork net(model, model::Bound::avg);
  auto replay = replay_program(t, 1.0, match);
  TraceRecorder recorder(t.nranks(), {});
  auto result = simulate(*replay.program, net, {}, &recorder);
  return {std::move(result), recorder.trace().ranks.back().recvs};
}

}  // namespace

TEST(SimReplay, WildcardsMatchInSimulatedOrderAndTheChangesAreCounted) {
  const auto t = arrival_order_differs().t;
  const auto simulated = run(t, Match::simulated);
  ASSERT_EQ(simulated.recvs.size(), 2u);
  EXPECT_EQ(simulated.recvs[0].src, 1);
  EXPECT_EQ(simulated.recvs[1].src, 0);
  EXPECT_EQ(simulated.recvs[0].wildcard, trace::kAnySource);
  EXPECT_DOUBLE_EQ(simulated.recvs[0].end, (5 + 10.1) * us);
  EXPECT_EQ(simulated.result.replayed_wildcards, 2u);
  EXPECT_EQ(simulated.result.changed_matches, 2u);

  const auto recorded = run(t, Match::recorded);
  ASSERT_EQ(recorded.recvs.size(), 2u);
  EXPECT_EQ(recorded.recvs[0].src, 0);
  EXPECT_EQ(recorded.recvs[1].src, 1);
  EXPECT_DOUBLE_EQ(recorded.recvs[0].end, 50 * us);
  EXPECT_EQ(recorded.result.replayed_wildcards, 0u);
  EXPECT_EQ(recorded.result.changed_matches, 0u);
}

TEST(SimReplay, ReceivesNamedInTheRunStayNamed) {
  auto b = arrival_order_differs();
  for (auto& m : b.t.ranks[2].recvs) m.wildcard = 0;  // an older trace, or named sources
  const auto simulated = run(b.t, Match::simulated);
  EXPECT_EQ(simulated.recvs[0].src, 0);
  EXPECT_EQ(simulated.result.changed_matches, 0u);
}

// Rank 0 posts receives from 1 (a late, large message) and from 2 (an early, small one), then
// waits for the second request first: with the trace's request records the replay waits for
// that one, and the first wait ends when rank 2's message is in, not rank 1's.
TEST(SimReplay, AWaitCompletesTheRequestTheTraceNames) {
  TraceBuilder b(3);
  b.send(1, 0, 6 * us, 0, 4000);
  b.send(2, 0, 2 * us, 0, 10);
  b.call(0, 0, 0.25 * us, "irecv1");
  b.t.ranks[0].recvs.push_back({0, 50 * us, 1, 0, 0, 4000, 0});
  b.t.ranks[0].requests.push_back({0, 7, 1});
  b.call(0, 0.25 * us, 0.5 * us, "irecv1");
  b.t.ranks[0].recvs.push_back({0.25 * us, 10.1 * us, 2, 0, 0, 10, 0});
  b.t.ranks[0].requests.push_back({0.25 * us, 8, 2});
  b.call(0, 0.5 * us, 10.1 * us, "wait");
  b.t.ranks[0].completions.push_back({0.5 * us, 8});
  b.compute(0, 10.1 * us, 11.1 * us);
  b.call(0, 11.1 * us, 50 * us, "wait");
  b.t.ranks[0].completions.push_back({11.1 * us, 7});

  const auto model = toy();
  ModelNetwork net(model, model::Bound::avg);
  auto replay = replay_program(b.t);
  const auto& body = replay.program->body_of(0);
  ASSERT_EQ(body.size(), 5u);
  ASSERT_EQ(body[2].kind, OpKind::wait);
  ASSERT_GE(body[2].peer, 0);
  EXPECT_EQ(replay.program->wait_set(body[2].peer), std::vector<std::uint32_t>{1});
  EXPECT_EQ(body[4].kind, OpKind::wait);
  EXPECT_EQ(body[4].peer, kAny);  // the one request left is the oldest
  EXPECT_EQ(body[4].tag2, 1);

  TraceRecorder recorder(3, {});
  const auto result = simulate(*replay.program, net, {}, &recorder);
  std::vector<double> wait_ends;
  for (const auto& s : recorder.trace().ranks[0].states)
    if (s.kind == trace::StateKind::mpi && recorder.trace().names[s.op] == "wait") wait_ends.push_back(s.end);
  ASSERT_EQ(wait_ends.size(), 2u);
  // Rank 2's message: sent at 0, transit 10 + 0.1 µs; rank 1's: 10 + 40 µs.
  EXPECT_DOUBLE_EQ(wait_ends[0], 10.1 * us);
  EXPECT_DOUBLE_EQ(wait_ends[1], 50 * us);
  EXPECT_DOUBLE_EQ(result.ranks[0].finish, 50 * us);

  // Without the request records (an older trace) the first wait takes the oldest request.
  b.t.ranks[0].requests.clear();
  b.t.ranks[0].completions.clear();
  auto old = replay_program(b.t);
  EXPECT_EQ(old.program->body_of(0)[2].peer, kAny);
}

// A wait set in the kernel: the middle one of three outstanding requests.
TEST(SimReplay, KernelWaitSetTakesTheNamedPositions) {
  FlatProgram p(2);
  const auto middle = p.add_wait_set({1});
  p.assign(0, 0, p.add_body({irecv_op(1, 0), irecv_op(1, 1), irecv_op(1, 2), wait_set_op(middle), wait_op()}));
  p.assign(1, 1, p.add_body({send_op(0, 10, 1), compute_op(100 * us), send_op(0, 10, 0), send_op(0, 10, 2)}));
  const auto model = toy();
  ModelNetwork net(model, model::Bound::avg);
  TraceRecorder recorder(2, {});
  const auto result = simulate(p, net, {}, &recorder);
  std::vector<double> wait_ends;
  for (const auto& s : recorder.trace().ranks[0].states)
    if (s.kind == trace::StateKind::mpi && recorder.trace().names[s.op] == "wait") wait_ends.push_back(s.end);
  ASSERT_EQ(wait_ends.size(), 2u);
  EXPECT_DOUBLE_EQ(wait_ends[0], 10.1 * us);  // tag 1's message, sent at 0
  EXPECT_GT(wait_ends[1], 100 * us);          // the others left after 100 µs of compute
  EXPECT_EQ(result.operations.at("wait").count, 2);
  FlatProgram bad(1);
  bad.assign(0, 0, bad.add_body({wait_set_op(3)}));
  EXPECT_THROW(simulate(bad, net), std::invalid_argument);
}

// A call towards MPI_PROC_NULL costs nothing, so the next call begins at the same time; the
// request records' peers keep the next call's message record from going to the null one.
TEST(SimReplay, NullPeerCallsAtTheSameTimeKeepTheirOrder) {
  TraceBuilder b(2);
  b.send(1, 0, 2 * us, 0, 10);
  b.call(0, 0, 0, "irecv1");  // MPI_PROC_NULL: no receive record
  b.t.ranks[0].requests.push_back({0, 0, trace::kNullPeer});
  b.call(0, 0, 0.25 * us, "irecv1");
  b.t.ranks[0].recvs.push_back({0, 10.1 * us, 1, 0, 0, 10, 0});
  b.t.ranks[0].requests.push_back({0, 1, 1});
  b.call(0, 0.25 * us, 10.1 * us, "wait");
  b.t.ranks[0].completions.push_back({0.25 * us, 1});  // the null one's completion is missing
  auto replay = replay_program(b.t);
  const auto& body = replay.program->body_of(0);
  ASSERT_EQ(body.size(), 3u);
  EXPECT_EQ(body[0].peer, kNoPeer);
  EXPECT_EQ(body[1].peer, 1);
  EXPECT_EQ(body[1].value, 10);
  EXPECT_EQ(body[2].kind, OpKind::wait);
  EXPECT_EQ(body[2].tag2, 2);  // both, the null one taken along
  const auto model = toy();
  ModelNetwork net(model, model::Bound::avg);
  EXPECT_DOUBLE_EQ(simulate(*replay.program, net).ranks[0].finish, 10.1 * us);
}

// A request no wait of the trace names stays outstanding to the end and is counted; the null
// one beside it leaves with the wait and is not.
TEST(SimReplay, RequestsNoWaitNamesAreCounted) {
  TraceBuilder b(2);
  b.call(0, 0, 0, "isend1");  // MPI_PROC_NULL: no send record
  b.t.ranks[0].requests.push_back({0, 0, trace::kNullPeer});
  b.call(0, 0, 0.25 * us, "isend1");
  b.t.ranks[0].sends.push_back({0, 1, 0, 0, 10});
  b.t.ranks[0].requests.push_back({0, 1, 1});
  b.call(0, 0.25 * us, 0.5 * us, "irecv1");
  b.t.ranks[0].recvs.push_back({0.25 * us, 0.5 * us, 1, 0, 0, 10, 0});
  b.t.ranks[0].requests.push_back({0.25 * us, 2, 1});
  b.call(0, 0.5 * us, 10.1 * us, "wait");
  b.t.ranks[0].completions.push_back({0.5 * us, 2});  // the send's completion is missing
  b.send(1, 0, 2 * us, 0, 10);
  b.recv(1, 2 * us, 12 * us, 0, 10, 0);
  EXPECT_EQ(replay_program(b.t).never_completed, 1);
  b.t.ranks[0].completions.push_back({0.5 * us, 1});
  EXPECT_EQ(replay_program(b.t).never_completed, 0);
}

}  // namespace
}  // namespace test_sim_replay
