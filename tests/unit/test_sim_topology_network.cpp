// `--network topology` in the kernel: messages as flows over a machine's links, times worked
// out by hand. Links of 1 MB/s and no latency unless a test says otherwise, so a flow of
// 1,000,000 bytes alone takes 1 s.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "sim/program/generators.hpp"
#include "sim/kernel/kernel.hpp"
#include "sim/network/machine_json.hpp"
#include "sim_program.hpp"
#include "sim/network/topologies.hpp"
#include "sim/network/topology_network.hpp"

// The file's own names, apart from other test files' when a unity build (AUGUR_UNITY) joins them.
namespace test_sim_topology_network {
namespace {

using namespace augur::sim;
using augur_test::program;

namespace {

constexpr double MB = 1e6;

}  // namespace

TEST(SimTopologyNetwork, OneMessageTakesItsBytesOverTheBandwidth) {
  TopologyNetwork net(generate_topology("star:3,bandwidth=1MB/s,latency=0"));
  auto r = simulate(program({{send_op(2, MB)}, {}, {recv_op(0)}}), net);
  EXPECT_DOUBLE_EQ(r.ranks[0].finish, 0);  // eager: handed to the network
  EXPECT_DOUBLE_EQ(r.ranks[2].finish, 1);
}

// Ranks 0 and 1 both send to rank 2: they share the switch's link to node 2.
TEST(SimTopologyNetwork, TwoFlowsIntoOneNodeTakeTwiceAsLong) {
  TopologyNetwork net(generate_topology("star:3,bandwidth=1MB/s,latency=0"));
  auto r = simulate(program({{send_op(2, MB)}, {send_op(2, MB)}, {recv_op(kAny), recv_op(kAny)}}), net);
  EXPECT_DOUBLE_EQ(r.ranks[2].finish, 2);
}

// On a crossbar, 0 → 1 and 2 → 3 use different links: no contention.
TEST(SimTopologyNetwork, DisjointRoutesDoNotShare) {
  TopologyNetwork net(generate_topology("star:4,bandwidth=1MB/s,latency=0"));
  auto r = simulate(program({{send_op(1, MB)}, {recv_op(0)}, {send_op(3, MB)}, {recv_op(2)}}), net);
  EXPECT_DOUBLE_EQ(r.ranks[1].finish, 1);
  EXPECT_DOUBLE_EQ(r.ranks[3].finish, 1);
}

// A bus is one medium: the same two transfers share it.
TEST(SimTopologyNetwork, ABusSharesEverything) {
  TopologyNetwork net(generate_topology("bus:4,bandwidth=1MB/s,latency=0"));
  auto r = simulate(program({{send_op(1, MB)}, {recv_op(0)}, {send_op(3, MB)}, {recv_op(2)}}), net);
  EXPECT_DOUBLE_EQ(r.ranks[1].finish, 2);
  EXPECT_DOUBLE_EQ(r.ranks[3].finish, 2);
}

// Rank 1's message joins at 0.5 s with a quarter of a megabyte: both then run at half speed;
// rank 1's ends at 1 s, when rank 0's has 0.25 MB left, at full speed again: it ends at 1.25 s.
// Links of 1 µs: two on every route through the switch.
TEST(SimTopologyNetwork, RatesChangeWhenAFlowJoinsAndLatencyIsAdded) {
  TopologyNetwork net(generate_topology("star:3,bandwidth=1MB/s,latency=1us"));
  auto r = simulate(program({{send_op(2, MB)}, {compute_op(0.5), send_op(2, MB / 4)}, {recv_op(0), recv_op(1)}}), net);
  EXPECT_DOUBLE_EQ(r.ranks[2].finish, 1.25 + 2e-6);
}

// A synchronous send's envelope does not overtake the sender's eager message still in transfer:
// the first receive gets the megabyte (at 1 s); the ssend's 10 bytes then cross alone.
TEST(SimTopologyNetwork, ASynchronousSendStaysBehindEarlierMessages) {
  TopologyNetwork net(generate_topology("star:2,bandwidth=1MB/s,latency=0"));
  auto p = program({{send_op(1, MB), send_op(1, 10, 0, augur::timing::SendMode::synchronous)}, {recv_op(0), recv_op(0)}});
  TraceRecorder trace(2, {});
  auto r = simulate(p, net, {}, &trace);
  const auto& recvs = trace.trace().ranks[1].recvs;
  ASSERT_EQ(recvs.size(), 2u);
  EXPECT_EQ(recvs[0].bytes, 1000000u);
  EXPECT_DOUBLE_EQ(recvs[0].end, 1);
  EXPECT_DOUBLE_EQ(r.ranks[1].finish, 1 + 10 / MB);
}

// MPI orders messages per (sender, receiver, communicator) only. On a ring of three, rank 0
// reaches rank 1 over link n0→n1 and rank 2 over n0→n2: its 1,000 bytes to rank 2, sent after
// a megabyte to rank 1, cross their own link alone in 1 ms and are not held behind the megabyte
// (1 s).
TEST(SimTopologyNetwork, AMessageToAnotherReceiverDoesNotWaitForAnEarlierOne) {
  TopologyNetwork net(generate_topology("ring:3,bandwidth=1MB/s,latency=0"));
  auto r = simulate(program({{send_op(1, MB), send_op(2, 1000)}, {recv_op(0)}, {recv_op(0)}}), net);
  EXPECT_DOUBLE_EQ(r.ranks[1].finish, 1);
  EXPECT_DOUBLE_EQ(r.ranks[2].finish, 1e-3);
}

// To the same receiver they stay in order: both flows share n0→n1 at 0.5 MB/s, the 1,000 bytes
// end at 2 ms while the megabyte has 999,000 bytes left, which then take 0.999 s alone; the
// small message, done first, is delivered with the megabyte at 1.001 s, after it.
TEST(SimTopologyNetwork, MessagesToOneReceiverStayInTheOrderSent) {
  TopologyNetwork net(generate_topology("ring:3,bandwidth=1MB/s,latency=0"));
  auto p = program({{send_op(1, MB), send_op(1, 1000)}, {recv_op(0), recv_op(0)}, {}});
  TraceRecorder trace(3, {});
  auto r = simulate(p, net, {}, &trace);
  const auto& recvs = trace.trace().ranks[1].recvs;
  ASSERT_EQ(recvs.size(), 2u);
  EXPECT_EQ(recvs[0].bytes, 1000000u);
  EXPECT_EQ(recvs[1].bytes, 1000u);
  EXPECT_DOUBLE_EQ(recvs[0].end, 1.001);
  EXPECT_DOUBLE_EQ(recvs[1].end, 1.001);
  EXPECT_DOUBLE_EQ(r.ranks[1].finish, 1.001);
}

// A communicator is a matching context of its own: the 1,000 bytes on `other`, sent after the
// megabyte on the world to the same receiver, are not held behind it. Both share n0→n1 at
// 0.5 MB/s until the small one ends at 2 ms, when rank 1's receive on `other` gets it; the
// megabyte's last 999,000 bytes then take 0.999 s alone.
TEST(SimTopologyNetwork, MessagesOnAnotherCommunicatorAreNotOrderedBehind) {
  TopologyNetwork net(generate_topology("ring:3,bandwidth=1MB/s,latency=0"));
  FlatProgram p(3);
  const auto other = p.add_comm({"other", 2, {0, 1}, 1});
  Op small = send_op(1, 1000);
  small.comm = other;
  Op small_recv = recv_op(0);
  small_recv.comm = other;
  p.assign(0, 0, p.add_body({send_op(1, MB), small}));
  p.assign(1, 1, p.add_body({small_recv, recv_op(0)}));
  TraceRecorder trace(3, {});
  auto r = simulate(p, net, {}, &trace);
  const auto& recvs = trace.trace().ranks[1].recvs;
  ASSERT_EQ(recvs.size(), 2u);
  EXPECT_EQ(recvs[0].bytes, 1000u);
  EXPECT_DOUBLE_EQ(recvs[0].end, 2e-3);
  EXPECT_DOUBLE_EQ(r.ranks[1].finish, 1.001);
}

// An incast: ranks 1 to 4 each send a megabyte to rank 0, which has posted its four receives
// at 0. As eager sends, the four flows share the switch's link to n0 at 0.25 MB/s and all end at
// 4 s. As synchronous sends, each envelope is matched at 0 and its data then flows the same way:
// 4 s as well, for the receiver and for each sender, which waits for its data to arrive.
TEST(SimTopologyNetwork, SynchronousSendsContendLikeOtherData) {
  auto incast = [](augur::timing::SendMode mode) {
    TopologyNetwork net(generate_topology("star:5,bandwidth=1MB/s,latency=0"));  // one run each
    std::vector<std::vector<Op>> bodies{{irecv_op(1), irecv_op(2), irecv_op(3), irecv_op(4), wait_op()}};
    for (int r = 1; r <= 4; ++r) bodies.push_back({send_op(0, MB, 0, mode)});
    return simulate(program(bodies), net);
  };
  const auto eager = incast(augur::timing::SendMode::standard);
  const auto synchronous = incast(augur::timing::SendMode::synchronous);
  EXPECT_DOUBLE_EQ(eager.ranks[0].finish, 4);
  EXPECT_DOUBLE_EQ(synchronous.ranks[0].finish, 4);
  for (int r = 1; r <= 4; ++r) {
    EXPECT_DOUBLE_EQ(eager.ranks[r].finish, 0);
    EXPECT_DOUBLE_EQ(synchronous.ranks[r].finish, 4);
  }
}

// A synchronous send's data moves from the match: the receive is posted at 2 s, so the 1 MB
// crosses from 2 s to 3 s, sharing nothing; the sender is done when it has arrived.
TEST(SimTopologyNetwork, ASynchronousSendsDataMovesFromTheMatch) {
  TopologyNetwork net(generate_topology("star:2,bandwidth=1MB/s,latency=1us"));
  auto r = simulate(program({{send_op(1, MB, 0, augur::timing::SendMode::synchronous)}, {compute_op(2), recv_op(0)}}), net);
  EXPECT_DOUBLE_EQ(r.ranks[0].finish, 3 + 2e-6);  // two links of 1 µs through the switch
  EXPECT_DOUBLE_EQ(r.ranks[1].finish, 3 + 2e-6);
}

TEST(SimTopologyNetwork, ComputeRunsAtTheNodesSpeed) {
  TopologyNetwork net(generate_topology("ring:2,speed=4"));
  auto r = simulate(program({{compute_op(1)}, {}}), net);
  EXPECT_DOUBLE_EQ(r.ranks[0].finish, 0.25);
}

// Ranks on one node exchange without links.
TEST(SimTopologyNetwork, RanksOfOneNodeNeedNoLinks) {
  TopologyNetwork net(generate_topology("ring:2,cores=2,bandwidth=1MB/s"));
  auto r = simulate(program({{send_op(1, MB)}, {recv_op(0)}}), net);
  EXPECT_DOUBLE_EQ(r.ranks[1].finish, 0);
}

// With the model's one-way time (here 1 µs + 1 ns a byte), a message within a node takes it,
// and contends with nothing: ranks 0 and 1 share node n0, ranks 2 and 3 node n1. Rank 0's
// last message, to rank 1 on its node, starts at 2 s and ends its transit 1 ms + 1 µs later;
// the one before it goes to another receiver (rank 2, across the link, ending at 3 s), which
// MPI does not order it behind: rank 1 is done at 2 s + 1 ms + 1 µs.
TEST(SimTopologyNetwork, RanksOfOneNodeTakeTheModelsOneWayTime) {
  const auto transit = [](double bytes) { return 1e-6 + bytes * 1e-9; };
  TopologyNetwork net(generate_topology("ring:2,cores=2,bandwidth=1MB/s,latency=0"), Sharing::fair, transit);
  auto r = simulate(program({{send_op(1, MB), compute_op(2), send_op(2, MB), send_op(1, MB)},
                             {recv_op(0), recv_op(0)},
                             {send_op(3, 1000), recv_op(0)},
                             {recv_op(2)}}),
                    net);
  EXPECT_DOUBLE_EQ(r.ranks[1].finish, 2 + 1e-3 + 1e-6);
  EXPECT_DOUBLE_EQ(r.ranks[2].finish, 3);
  EXPECT_DOUBLE_EQ(r.ranks[3].finish, 2e-6);
  EXPECT_DOUBLE_EQ(r.ranks[0].finish, 2);
}

// With a memory link (memory=, machine.hpp) the ranks of a node send through it, sharing it, and
// it wins over the model's one-way time: ranks 0 → 1 and 2 → 3 on node n0 of 1 MB/s memory
// share it, 2 s each plus its 1 ms latency, while 4 → 5 on n1 takes 1 s + 1 ms; rank 0 → 4
// crosses the ring's link alone (10 MB/s): 0.1 s.
TEST(SimTopologyNetwork, RanksOfOneNodeShareItsMemory) {
  const auto transit = [](double) { return 0.0; };
  TopologyNetwork net(generate_topology("ring:2,cores=4,bandwidth=10MB/s,latency=0,memory=1MB/s,memory_latency=1ms"),
                      Sharing::fair, transit);
  auto r = simulate(program({{send_op(1, MB), send_op(4, MB)}, {recv_op(0)}, {send_op(3, MB)}, {recv_op(2)},
                             {send_op(5, MB), recv_op(0)}, {recv_op(4)}, {}, {}}),
                    net);
  EXPECT_DOUBLE_EQ(r.ranks[1].finish, 2 + 1e-3);
  EXPECT_DOUBLE_EQ(r.ranks[3].finish, 2 + 1e-3);
  EXPECT_DOUBLE_EQ(r.ranks[5].finish, 1 + 1e-3);
  EXPECT_DOUBLE_EQ(r.ranks[4].finish, 0.1);
}

TEST(SimTopologyNetwork, CollectivesRunAsMessages) {
  TopologyNetwork net(generate_topology("star:4,bandwidth=1MB/s,latency=0"));
  FlatProgram p(4);
  p.add_body({collective_op(p.intern("barrier"), 0)});
  auto r = simulate(p, net);
  EXPECT_EQ(r.operations.at("barrier").count, 4);
}

// The seed's HASE experiment (howell-thesis.md §4): the same allreduce on a binary tree of
// switches takes about twice as long as on a fat tree, because every step above the leaves
// funnels its pairs through fewer links. One time unit per hop (latency 1 s a link) and messages
// that take 10 units to cross a link (10,000 B at 1,000 B/s). Recursive doubling on 8 ranks:
// step k pairs rank r with r xor 2^k, 2, 4 and 6 links apart, 2 + 4 + 6 = 12 units of latency.
// On the binary tree (leaves n0 … n7, switches s0 … s3 over pairs, s4 and s5 over those, s6 at
// the root) step k's pairs share the links below their meeting switch 2^k at a time:
// 10 + 20 + 40 units of transfer, 82 in all. The 2-ary 3-tree gives every pair its own path:
// 10 + 10 + 10, 42 in all, 0.51 of the binary tree's time.
namespace {

std::string binary_tree_of_8() {
  std::string links;
  auto link = [&](const std::string& a, const std::string& b) {
    links += fmt::format(R"({}{{"connect": ["{}", "{}"], "latency": 1, "bandwidth": 1000}})", links.empty() ? "" : ",", a, b);
  };
  for (int n = 0; n < 8; ++n) link(fmt::format("n{}", n), fmt::format("s{}", n / 2));
  for (int s = 0; s < 4; ++s) link(fmt::format("s{}", s), fmt::format("s{}", 4 + s / 2));
  link("s4", "s6");
  link("s5", "s6");
  return R"({"augur_machine": 1, "nodes": 8, "switches": 7, "links": [)" + links + "]}";
}

double rd_allreduce_of_8(const Machine& machine) {
  TopologyNetwork net(machine);
  auto g = generate("allreduce", {"algorithm=rd", "p=8", "bytes=10000"});
  Options options;
  options.algorithms = g.algorithms;
  return simulate(*g.program, net, options).predicted;
}

}  // namespace

TEST(SimTopologyNetwork, AllreduceOnAFatTreeTakesAboutHalfTheBinaryTreesTime) {
  const double binary = rd_allreduce_of_8(parse_machine(binary_tree_of_8(), "binary-tree.json"));
  const double fat = rd_allreduce_of_8(generate_topology("fattree:2,3,latency=1,bandwidth=1000"));
  EXPECT_DOUBLE_EQ(binary, 12 + 10 + 20 + 40);
  EXPECT_DOUBLE_EQ(fat, 12 + 10 + 10 + 10);
  EXPECT_NEAR(fat / binary, 0.5, 0.05);
}

// --sharing rtt on a line of three nodes, links of 1 MB/s and 1 s: 0 → 2 crosses both links
// (route latency 2 s, weight 1/2), 1 → 2 only the second (1 s, weight 1). Rank 0 sends 1 MB at
// 0 and rank 1 at 1: both wait out their latency and start flowing at 2, sharing the second
// link 1/3 to 2/3 MB/s. Rank 1's ends at 3.5, when rank 0's has 0.5 MB left, alone then: 4.
// Shared fairly instead, rank 0's flows alone from 0 to 1 and arrives at 3, rank 1's from 1 to
// 2, arriving at 3.
TEST(SimTopologyNetwork, RttSharingWaitsOutTheLatencyThenSharesByItsInverse) {
  const auto machine = generate_topology("mesh:3,bandwidth=1MB/s,latency=1s");
  const auto traffic = program({{send_op(2, MB)}, {compute_op(1), send_op(2, MB)}, {recv_op(1), recv_op(0)}});
  TopologyNetwork rtt(machine, Sharing::rtt), fair(machine, Sharing::fair);
  EXPECT_DOUBLE_EQ(simulate(traffic, rtt).ranks[2].finish, 4);
  EXPECT_DOUBLE_EQ(simulate(traffic, fair).ranks[2].finish, 3);
}

TEST(SimTopologyNetwork, SharingIsFairOrRtt) {
  EXPECT_EQ(parse_sharing("fair"), Sharing::fair);
  EXPECT_EQ(parse_sharing("rtt"), Sharing::rtt);
  EXPECT_THROW(parse_sharing("cm02"), std::invalid_argument);
}

}  // namespace
}  // namespace test_sim_topology_network
