// The anomaly sweep finds a grain whose reduction lengthens the run, through a shared link or a
// wildcard receive. On a bus (one shared
// medium, 1 B/s): rank 1 sends 50 B to rank 0 at 10 s, rank 2 sends 50 B after 70 s of
// compute, when the bus is free again; rank 0 receives from 1, computes 100, receives from 2:
// 160 s. Halving rank 2's grain makes its message share the bus with rank 1's, which then
// arrives at 85 instead of 60, and the run takes 185 s.
#include <gtest/gtest.h>

#include <algorithm>

#include "analyze/analysis.hpp"
#include "analyze/anomalies.hpp"
#include "analyze/order.hpp"
#include "analyze/whatif.hpp"
#include "sim/kernel/kernel.hpp"
#include "sim/network/loggops.hpp"
#include "sim/network/topologies.hpp"
#include "sim/network/topology_network.hpp"

using namespace augur;
using namespace augur::sim;

namespace {

FlatProgram shared_bus_program() {
  FlatProgram p(3);
  p.assign(0, 0, p.add_body({recv_op(1), compute_op(100), recv_op(2)}));
  p.assign(1, 1, p.add_body({compute_op(10), send_op(0, 50)}));
  p.assign(2, 2, p.add_body({compute_op(70), send_op(0, 50)}));
  return p;
}

}  // namespace

TEST(AnalyzeAnomaly, ShrinkingASideGrainThatContendsForTheBusIsFound) {
  const auto machine = generate_topology("bus:3,bandwidth=1,latency=0");
  const auto setup = analyze::make_setup([&] { return std::make_unique<TopologyNetwork>(machine); }, &machine);
  const auto prog = shared_bus_program();
  const auto base = analyze::resimulate(prog, setup);
  ASSERT_DOUBLE_EQ(base.time, 160);
  // Before the sweep: the path is rank 1's grain, its message, rank 0's grain (10 + 50 + 100);
  // rank 2's receive completes in an empty call right where rank 0's grain ends.
  const auto before = analyze::analyze_trace(base.trace, setup.costs());
  EXPECT_DOUBLE_EQ(before.path.length, 160);
  EXPECT_DOUBLE_EQ(before.shares.by_operation.at("compute"), 110);
  EXPECT_DOUBLE_EQ(before.shares.by_operation.at("message"), 50);
  const analyze::GrainIndex grains(base.trace);
  const auto sweep = analyze::sweep_anomalies(prog, base, grains, setup, 0.5, 100);
  EXPECT_EQ(sweep.grains, "grains");
  EXPECT_EQ(sweep.tried, 3u);
  ASSERT_EQ(sweep.anomalies.size(), 1u);
  const auto& a = sweep.anomalies.front();
  EXPECT_EQ(a.grain, "2:0");
  EXPECT_DOUBLE_EQ(a.baseline, 160);
  EXPECT_DOUBLE_EQ(a.tuned, 185);
  ASSERT_FALSE(a.reordered.empty());
  EXPECT_EQ(a.reordered.front(),
            "rank 2's send #0 (to rank 0) now comes before rank 0's receive #0 (from rank 1) completes; it came after");
}

// Rank 0 serves two synchronous senders through wildcards in arrival order, 100 s each. Rank 1
// (12 s of work, then 200 s more after its send) comes first; rank 2 has 20 s of work.
namespace {
FlatProgram wildcard_race() {
  FlatProgram p(3);
  const auto ssend = [](int to) { return send_op(to, 8, 0, timing::SendMode::synchronous); };
  p.assign(0, 0, p.add_body({recv_op(kAny), compute_op(100), recv_op(kAny)}));
  p.assign(1, 1, p.add_body({compute_op(12), ssend(0), compute_op(200)}));
  p.assign(2, 2, p.add_body({compute_op(20), ssend(0)}));
  return p;
}
}  // namespace

// Through a wildcard: rank 0 serves two synchronous senders in arrival order, 100 s each.
// Rank 1 (12 s of work, then 200 s more after its send) comes first and the run takes 212 s.
// Halve rank 2's 20 s grain and rank 2 comes first: rank 1 waits for rank 0's 100 s before
// its 200 s, and the run takes 310 s.
TEST(AnalyzeAnomaly, ShrinkingAGrainThatWinsAWildcardIsFound) {
  FlatProgram p = wildcard_race();
  const auto setup = analyze::make_setup([] { return std::make_unique<LogGOPSNetwork>(LogGOPSParams{}); });
  const auto base = analyze::resimulate(p, setup);
  ASSERT_DOUBLE_EQ(base.time, 212);
  const analyze::GrainIndex grains(base.trace);
  const auto sweep = analyze::sweep_anomalies(p, base, grains, setup, 0.5, 100);
  EXPECT_EQ(sweep.tried, 4u);
  ASSERT_EQ(sweep.anomalies.size(), 1u);
  const auto& a = sweep.anomalies.front();
  EXPECT_EQ(a.grain, "2:0");
  EXPECT_DOUBLE_EQ(a.tuned, 310);
  EXPECT_NE(std::find(a.reordered.begin(), a.reordered.end(), "rank 0's receive #0 now matches rank 2 (was rank 1)"),
            a.reordered.end());
}

// A wildcard receive that matches another sender once a grain shrinks is reported as such.
TEST(AnalyzeAnomaly, OrderChangesNameAWildcardThatMatchedAnotherSource) {
  trace::Trace before, after;
  before.ranks.resize(3);
  after.ranks.resize(3);
  before.ranks[0].recvs = {{0, 5, 1, 0, 0, 8}, {0, 7, 2, 0, 0, 8}};
  after.ranks[0].recvs = {{0, 5, 2, 0, 0, 8}, {0, 7, 1, 0, 0, 8}};
  const auto changes = analyze::order_changes(before, after);
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes[0], "rank 0's receive #0 now matches rank 2 (was rank 1)");
}

// The what-if of a tuning that lets a wildcard match another sender says so: its bound is for
// the baseline's matching. A tuning that keeps the matching does not.
TEST(AnalyzeAnomaly, AWhatIfThatRematchesAWildcardSaysSo) {
  FlatProgram p = wildcard_race();
  const auto setup = analyze::make_setup([] { return std::make_unique<LogGOPSNetwork>(LogGOPSParams{}); });
  const auto base = analyze::resimulate(p, setup);
  const analyze::GrainIndex grains(base.trace);
  analyze::Tuning rank2_faster, rank1_faster;
  rank2_faster.grains["2:0"] = 0.5;  // 10 s: rank 2 now arrives first
  rank1_faster.grains["1:0"] = 0.5;  // 6 s: rank 1 still first
  EXPECT_TRUE(analyze::what_if(p, base, grains, rank2_faster, setup).rematched);
  EXPECT_FALSE(analyze::what_if(p, base, grains, rank1_faster, setup).rematched);
  EXPECT_TRUE(analyze::matching_changed(base.trace, analyze::resimulate(*analyze::tuned_program(p, rank2_faster, grains), setup).trace));
}
