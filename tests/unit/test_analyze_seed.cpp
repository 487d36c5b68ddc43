// `augur analyze` against seed 004's worked examples: the critical path 20+50+90+10 = 170 of a
// small DAG program, 120 with the 90 grain tuned to 40 and 110 with it split three ways; the
// farm on a chain of four processors whose critical load is the 1500 units on the link back to
// processor 0. Units are seconds; messages cost nothing unless a test says otherwise.
#include <gtest/gtest.h>

#include "analyze/analysis.hpp"
#include "analyze/resimulate.hpp"
#include "analyze/whatif.hpp"
#include "sim/kernel/kernel.hpp"
#include "seed_dag.hpp"
#include "sim_program.hpp"
#include "sim/network/loggops.hpp"
#include "sim/network/topology_network.hpp"

using namespace augur;
using namespace augur::sim;
using augur_test::program;
using augur_test::seed_dag;

namespace {


// The same with the 90 grain split over ranks 2, 4 and 5, 30 each.
FlatProgram seed_dag_split() {
  return program({{compute_op(20), send_op(1, 8), send_op(3, 8), recv_op(2), recv_op(4), recv_op(5), recv_op(3),
                   compute_op(10)},
                  {recv_op(0), compute_op(50), send_op(2, 8), send_op(4, 8), send_op(5, 8)},
                  {recv_op(1), compute_op(30), send_op(0, 8)},
                  {recv_op(0), compute_op(60), send_op(0, 8)},
                  {recv_op(1), compute_op(30), send_op(0, 8)},
                  {recv_op(1), compute_op(30), send_op(0, 8)}});
}

analyze::SimSetup free_messages() {
  return analyze::make_setup([] { return std::make_unique<LogGOPSNetwork>(LogGOPSParams{}); });
}

}  // namespace

TEST(AnalyzeSeed, CriticalPathOfTheWorkedExampleIs170) {
  const auto run = analyze::resimulate(seed_dag(), free_messages());
  const auto a = analyze::analyze_trace(run.trace, free_messages().costs());
  EXPECT_DOUBLE_EQ(run.time, 170);
  EXPECT_DOUBLE_EQ(a.path.length, 170);
  std::vector<double> grains;
  for (const auto& s : a.path.segments)
    if (s.kind == analyze::SegmentKind::compute) grains.push_back(s.length);
  EXPECT_EQ(grains, (std::vector<double>{20, 50, 90, 10}));
  EXPECT_DOUBLE_EQ(a.shares.by_rank.at(2), 90);
  EXPECT_DOUBLE_EQ(a.shares.by_operation.at("compute"), 170);
  EXPECT_DOUBLE_EQ(a.advice.limit, 170);
  EXPECT_DOUBLE_EQ(a.advice.gap, 0);
  // The run follows its path and the 90 grain is over half of it: split it.
  EXPECT_EQ(a.advice.regime, "critical path");
  EXPECT_EQ(a.advice.kind, analyze::TuningKind::parallelism);
}

TEST(AnalyzeSeed, TuningThe90GrainTo40Gives120BeforeAndAfterSimulating) {
  const auto prog = seed_dag();
  const auto s = free_messages();
  const auto base = analyze::resimulate(prog, s);
  const analyze::GrainIndex grains(base.trace);
  analyze::Tuning t;
  t.grains["2:0"] = 40.0 / 90.0;
  const auto w = analyze::what_if(prog, base, grains, t, s);
  EXPECT_DOUBLE_EQ(w.baseline, 170);
  EXPECT_DOUBLE_EQ(w.bound, 120);
  EXPECT_DOUBLE_EQ(w.tuned, 120);
  EXPECT_DOUBLE_EQ(w.after.path.length, 120);
}

TEST(AnalyzeSeed, SplittingThe90GrainThreeWaysGives110) {
  const auto run = analyze::resimulate(seed_dag_split(), free_messages());
  const auto a = analyze::analyze_trace(run.trace, free_messages().costs());
  EXPECT_DOUBLE_EQ(run.time, 110);
  EXPECT_DOUBLE_EQ(a.path.length, 110);
}

// Messages that cost something lie on the path: 1 s each way here (L = 1, nothing else).
TEST(AnalyzeSeed, MessagesOnThePathAddTheirUndisturbedTime) {
  LogGOPSParams p;
  p.L = 1;
  const auto s = analyze::make_setup([p] { return std::make_unique<LogGOPSNetwork>(p); });
  const auto run = analyze::resimulate(seed_dag(), s);
  const auto a = analyze::analyze_trace(run.trace, s.costs());
  EXPECT_DOUBLE_EQ(run.time, 173);
  EXPECT_DOUBLE_EQ(a.path.length, 173);
  EXPECT_DOUBLE_EQ(a.shares.by_operation.at("message"), 3);
}

namespace {

// Processors 0-1-2-3 in a chain, links of 1 B/s and no latency: a message's bytes are its units.
Machine chain_of_four() {
  Machine m;
  m.name = "chain4";
  m.node_types = {NodeType{}};
  m.node_type = {0, 0, 0, 0};
  for (int i = 0; i < 3; ++i) m.links.push_back(Link{{i, i + 1}, 0, 1.0, true, false});
  validate(m);
  return m;
}

// Processor 0 hands each of 3 workers 10 units of work data and gets 50 units back, 10 times;
// each worker computes 100 a time: 1000 in all.
FlatProgram farm() {
  std::vector<Op> master, worker;
  for (int i = 0; i < 10; ++i) {
    for (int w = 1; w <= 3; ++w) master.push_back(send_op(w, 10));
    for (int w = 1; w <= 3; ++w) master.push_back(recv_op(w));
    worker.insert(worker.end(), {recv_op(0), compute_op(100), send_op(0, 50)});
  }
  return program({master, worker, worker, worker});
}

}  // namespace

TEST(AnalyzeSeed, FarmOnAChainIsBoundByTheLinkBackToProcessor0) {
  const auto machine = chain_of_four();
  const auto s = analyze::make_setup([&] { return std::make_unique<TopologyNetwork>(machine); }, &machine);
  const auto run = analyze::resimulate(farm(), s);
  const auto a = analyze::analyze_trace(run.trace, s.costs());
  ASSERT_FALSE(a.load.links.empty());
  EXPECT_EQ(a.load.links.front().name, "n1→n0");
  EXPECT_DOUBLE_EQ(a.load.links.front().seconds, 1500);
  EXPECT_EQ(a.load.links.front().messages, 30u);
  EXPECT_DOUBLE_EQ(a.load.busiest_rank_load, 1000);
  EXPECT_DOUBLE_EQ(a.load.load, 1500);
  EXPECT_TRUE(a.load.on_link);
  EXPECT_EQ(a.load.resource, "n1→n0");
  EXPECT_DOUBLE_EQ(a.load.even_spread, 750);  // 3000 units of work over 4 processors
  EXPECT_GE(a.advice.limit, 1500);
  EXPECT_LE(a.advice.limit, run.time);
}
