// Link utilisation of `augur sim --network topology`: each link direction's busy time, bytes and
// shares over the run, and per interval, from the flows of small programs timed by hand.
#include <gtest/gtest.h>

#include "report/link_table.hpp"
#include "sim/kernel/kernel.hpp"
#include "sim/kernel/trace_sink.hpp"
#include "sim/network/topologies.hpp"
#include "sim/network/topology_network.hpp"
#include "sim/report/run_utilisation.hpp"
#include "sim_program.hpp"

using namespace augur;
using namespace augur::sim;
using augur_test::program;

namespace {

constexpr double MB = 1e6;

// Processors 0-1-2 in a chain, links of 1000 B/s and no latency.
Machine chain_of_three() {
  Machine m;
  m.name = "chain3";
  m.node_types = {NodeType{}};
  m.node_type = {0, 0, 0};
  for (int i = 0; i < 2; ++i) m.links.push_back(Link{{i, i + 1}, 0, 1000, true, false});
  validate(m);
  return m;
}

struct Run {
  Result result;
  trace::Utilisation used;
};

Run run(const FlatProgram& p, const Machine& machine, int bins) {
  TopologyNetwork net(machine);
  net.transfers()->record_usage();
  TraceRecorder recorder(p.nranks(), trace::TraceHeader{trace::TraceMode::simulated, machine.name, "s", "test"});
  auto result = simulate(p, net, {}, &recorder);
  return {result, run_utilisation(recorder.trace(), net.transfers(), bins)};
}

const trace::LinkUtilisation& link(const trace::Utilisation& u, const std::string& name) {
  for (const auto& l : u.links)
    if (l.name == name) return l;
  throw std::out_of_range("no link " + name);
}

}  // namespace

// Rank 0 on n0 sends 1 MB to rank 1 on n2 of a ring of 4 (links of 1 MB/s and 1 µs): the route
// is n0→n1→n2, each busy for exactly 1 s; the run ends when the data and 2 µs of latency are
// through. The other six directions stay idle.
TEST(SimLinkUtilisation, ARouteIsBusyForTheBytesOverTheBandwidth) {
  auto ring = generate_topology("ring:4,bandwidth=1MB/s,latency=1us");
  ring.mapping = Mapping::file;
  ring.rank_nodes = {0, 2};
  const auto r = run(program({{send_op(1, MB)}, {recv_op(0)}}), ring, 4);
  const double total = 1 + 2e-6;
  ASSERT_DOUBLE_EQ(r.result.predicted, total);
  ASSERT_EQ(r.used.links.size(), 8u);  // 4 full-duplex links, two directions each
  EXPECT_DOUBLE_EQ(r.used.run_seconds(), total);
  for (const auto& l : r.used.links) {
    const bool on_route = l.name == "n0→n1" || l.name == "n1→n2";
    EXPECT_DOUBLE_EQ(l.busy_seconds, on_route ? 1 : 0) << l.name;
    EXPECT_DOUBLE_EQ(l.bytes, on_route ? MB : 0) << l.name;
    EXPECT_DOUBLE_EQ(l.bandwidth, MB) << l.name;
    EXPECT_DOUBLE_EQ(trace::busy_share(l, total), on_route ? 1 / total : 0) << l.name;
    EXPECT_DOUBLE_EQ(trace::bandwidth_share(l, total), on_route ? 1 / total : 0) << l.name;
  }
  // Intervals of total/4: busy throughout the first three, and the fourth up to 1 s.
  const auto& busy = link(r.used, "n1→n2").busy;
  ASSERT_EQ(busy.size(), 4u);
  for (int b = 0; b < 3; ++b) EXPECT_DOUBLE_EQ(busy[b], 1) << b;
  EXPECT_NEAR(busy[3], (1 - 0.75 * total) / (total / 4), 1e-12);
}

// Ranks 0 and 1 send 1000 and 3000 B to rank 2 at 0 s. Both cross n1→n2 at 500 B/s until rank
// 0's ends at 2 s; rank 1's then has 2000 B left at the full 1000 B/s and ends at 4 s. n0→n1
// carries rank 0's flow at its 500 B/s share: busy half the run but using a quarter of its
// bandwidth.
TEST(SimLinkUtilisation, TwoFlowsSharingALink) {
  const auto r = run(program({{send_op(2, 1000)}, {send_op(2, 3000)}, {recv_op(0), recv_op(1)}}), chain_of_three(), 4);
  ASSERT_DOUBLE_EQ(r.result.predicted, 4);
  struct Want {
    const char* name;
    double busy_seconds, bytes, busy_share, bandwidth_share;
    std::vector<double> busy;
  };
  for (const auto& w : {Want{"n1→n2", 4, 4000, 1, 1, {1, 1, 1, 1}}, Want{"n0→n1", 2, 1000, 0.5, 0.25, {1, 1, 0, 0}}}) {
    const auto& l = link(r.used, w.name);
    EXPECT_DOUBLE_EQ(l.busy_seconds, w.busy_seconds) << w.name;
    EXPECT_DOUBLE_EQ(l.bytes, w.bytes) << w.name;
    EXPECT_DOUBLE_EQ(trace::busy_share(l, 4), w.busy_share) << w.name;
    EXPECT_DOUBLE_EQ(trace::bandwidth_share(l, 4), w.bandwidth_share) << w.name;
    EXPECT_EQ(l.busy, w.busy) << w.name;
  }
  EXPECT_DOUBLE_EQ(link(r.used, "n1→n0").busy_seconds, 0);
  EXPECT_DOUBLE_EQ(link(r.used, "n2→n1").busy_seconds, 0);
  const auto busiest = trace::busiest_links(r.used.links, 2);
  ASSERT_EQ(busiest.size(), 2u);
  EXPECT_EQ(r.used.links[busiest[0]].name, "n1→n2");
  EXPECT_EQ(r.used.links[busiest[1]].name, "n0→n1");
}

// Rank 0 sends 1000 B (0–1 s), computes 2 s, then sends 1000 B again (3–4 s): the link is idle
// in between. A flow that starts the moment the last one ends continues the busy time.
TEST(SimLinkUtilisation, IdleGapsAreNotBusyAndBackToBackFlowsAreOneStretch) {
  auto two = chain_of_three();
  const auto gap = run(program({{send_op(1, 1000), compute_op(3), send_op(1, 1000)}, {recv_op(0), recv_op(0)}, {}}),
                       two, 4);
  ASSERT_DOUBLE_EQ(gap.result.predicted, 4);
  EXPECT_DOUBLE_EQ(link(gap.used, "n0→n1").busy_seconds, 2);
  EXPECT_EQ(link(gap.used, "n0→n1").busy, (std::vector<double>{1, 0, 0, 1}));

  TopologyNetwork net(two);
  net.transfers()->record_usage();
  simulate(program({{send_op(1, 1000), compute_op(1), send_op(1, 1000)}, {recv_op(0), recv_op(0)}, {}}), net);
  const auto& channel = net.transfers()->usage()->channels()[0];  // n0→n1
  ASSERT_EQ(channel.busy.size(), 1u);
  EXPECT_DOUBLE_EQ(channel.busy[0].first, 0);
  EXPECT_DOUBLE_EQ(channel.busy[0].second, 2);
  EXPECT_DOUBLE_EQ(channel.bytes, 2000);
}

// The JSON carries every direction with exact values and names the busiest; the CSV a row per
// link and interval after the ranks'; the table the busy ones, busiest first.
TEST(SimLinkUtilisation, JsonCsvAndTable) {
  const auto r = run(program({{send_op(2, 1000)}, {send_op(2, 3000)}, {recv_op(0), recv_op(1)}}), chain_of_three(), 4);
  const auto j = trace::utilisation_json(r.used);
  EXPECT_EQ(j.at("busiest_link"), "n1→n2");
  EXPECT_EQ(j.at("run_seconds").get<double>(), 4);
  ASSERT_EQ(j.at("links").size(), 4u);
  const auto& first = j.at("links").at(0);  // n0→n1, the first link's first direction
  EXPECT_EQ(first.at("name"), "n0→n1");
  EXPECT_EQ(first.at("bandwidth").get<double>(), 1000);
  EXPECT_EQ(first.at("bytes").get<double>(), 1000);
  EXPECT_EQ(first.at("busy_seconds").get<double>(), 2);
  EXPECT_EQ(first.at("busy_share").get<double>(), 0.5);
  EXPECT_EQ(first.at("bandwidth_share").get<double>(), 0.25);
  EXPECT_EQ(first.at("busy"), nlohmann::json({1.0, 1.0, 0.0, 0.0}));

  const auto csv = trace::utilisation_csv(r.used);
  EXPECT_EQ(csv.rfind("rank,bin,begin,end,compute,mpi,link,busy\n", 0), 0u) << csv;
  EXPECT_NE(csv.find("\n2,3,3,4,0,1,,\n"), std::string::npos) << csv;  // rank 2 waits in MPI to the end
  EXPECT_NE(csv.find("\n,1,1,2,,,n0→n1,1\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\n,2,2,3,,,n0→n1,0\n"), std::string::npos) << csv;
  std::size_t rows = 0;
  for (char c : csv) rows += c == '\n';
  EXPECT_EQ(rows, 1 + 3 * 4 + 4 * 4u);

  const auto table = report::busiest_links_table(r.used, 8);
  EXPECT_NE(table.find("2 of 4 link directions"), std::string::npos) << table;
  const auto shared = table.find("n1→n2  100.0%        4 s"), half = table.find("n0→n1   50.0%        2 s");
  ASSERT_NE(shared, std::string::npos) << table;
  ASSERT_NE(half, std::string::npos) << table;
  EXPECT_LT(shared, half);
  EXPECT_EQ(table.find("n2→n1"), std::string::npos) << table;
}
