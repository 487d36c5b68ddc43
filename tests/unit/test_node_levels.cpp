// A machine of nodes (docs/nodes.md): raw records with their placement, the fit's two levels,
// the model file's nodes section, the placement resolver, and the prices of calc, the timing
// rules and the simulator by level. Answers are compared with the stored laws themselves, so
// each holds exactly whatever the fit chose.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <functional>
#include <sstream>
#include <string>

#include "analyze/analysis.hpp"
#include "analyze/resimulate.hpp"
#include "calc/calculator.hpp"
#include "fit/fitter.hpp"
#include "fit/raw.hpp"
#include "model/machines.hpp"
#include "model/model_json.hpp"
#include "sim/kernel/kernel.hpp"
#include "sim/network/loggops.hpp"
#include "sim/network/network.hpp"
#include "sim/program/goal.hpp"
#include "sim/program/schedule.hpp"
#include "timing/levels.hpp"

using namespace augur;

namespace {

const model::Model& two_level() {
  static const model::Model m = [] {
    fit::FitOptions options;
    options.units = {"s", "bytes", 4};
    return fit::fit_model(fit::read_raw_file(AUGUR_TEST_DATA "/two-level.raw.jsonl"), options).model;
  }();
  return m;
}

double law(const model::Operation& op, double p, double bytes) { return two_level().seconds(op, p, bytes); }

calc::Answer ask(const char* op, double p, double bytes, const timing::Placement& placement = {}) {
  return calc::ask(two_level(), {op, p, bytes}, placement);
}

std::string load_error(const std::string& text) {
  try {
    model::parse_model(text, "m.json");
  } catch (const model::ModelError& e) {
    return e.what();
  }
  return "";
}

// The model file of `two_level()` with its nodes section edited by `edit`.
std::string with_nodes(const std::function<void(nlohmann::json&)>& edit) {
  auto j = model::to_json(two_level());
  edit(j["nodes"]);
  return j.dump();
}

}  // namespace

TEST(NodeLevels, FitSplitsRecordsByPlacement) {
  const auto& m = two_level();
  ASSERT_TRUE(m.nodes);
  EXPECT_EQ(m.nodes->ranks_per_node, 2);
  ASSERT_TRUE(m.nodes->on_node.contains("pingpong"));
  ASSERT_TRUE(m.nodes->on_node.contains("send"));
  EXPECT_FALSE(m.nodes->on_node.contains("bcast"));
  ASSERT_TRUE(m.nodes->placements.contains(2));
  EXPECT_TRUE(m.nodes->placements.at(2).contains("bcast"));
  EXPECT_FALSE(m.nodes->placements.at(2).contains("allreduce"));
  // The levels were fitted apart: 5 µs + d/125 MB/s between nodes, 0.2 µs + d/10 GB/s on one.
  EXPECT_NEAR(m.seconds("pingpong", 2, 8), 5e-6 + 8 / 1.25e8, 1e-8);
  EXPECT_NEAR(law(m.nodes->on_node.at("pingpong"), 2, 8), 2e-7 + 8 / 1e10, 1e-9);
  EXPECT_NEAR(m.network.bandwidth, 1.25e8, 1e6);
  EXPECT_GT(m.nodes->network.bandwidth, 5e9);
}

// The bench's state probe runs between world ranks 0 and 1, on one node here: a slower probe
// says the node was slower, not the link. Between-nodes records met only the slower probe, on-node
// ones both; the between-nodes laws stay at their measured times.
TEST(NodeLevels, StateProbeOnOneNodeDoesNotScaleTheLink) {
  auto raw = fit::read_raw_file(AUGUR_TEST_DATA "/two-level.raw.jsonl");
  const auto once = raw.points;
  raw.points.clear();
  for (int pass = 0; pass < 2; ++pass)
    for (auto m : once) {
      m.state_probe = m.per_node() == 1 || pass == 1 ? 2.5e-6 : 0.9e-6;
      raw.points.push_back(m);
    }
  fit::FitOptions options;
  options.units = {"s", "bytes", 4};
  const auto probed = fit::fit_model(raw, options).model;
  EXPECT_NEAR(probed.seconds("pingpong", 2, 8), 5e-6 + 8 / 1.25e8, 1e-8);
  for (const auto& [name, op] : two_level().nodes->placements.at(2))
    EXPECT_NEAR(probed.seconds(probed.nodes->placements.at(2).at(name), 4, 1024), law(op, 4, 1024), 1e-12) << name;
}

TEST(NodeLevels, RunOnOneNodeFitsOneLevel) {
  std::istringstream raw(R"({"augur_raw":1}
{"op":"pingpong","p":2,"bytes":0,"nodes":1,"ranks_per_node":2,"min":1e-7,"median":1e-7,"mean":1e-7,"max":1e-7,"std":0,"reps":5}
{"op":"pingpong","p":2,"bytes":1024,"nodes":1,"ranks_per_node":2,"min":2e-7,"median":2e-7,"mean":2e-7,"max":2e-7,"std":0,"reps":5}
)");
  const auto m = fit::fit_model(fit::parse_raw(raw, "one-node.raw.jsonl"), {}).model;
  EXPECT_FALSE(m.nodes);
  EXPECT_TRUE(m.find("pingpong"));
}

TEST(NodeLevels, RawRecordsCheckTheirPlacement) {
  auto error = [](const std::string& record, const std::string& header = R"({"augur_raw":1})") {
    std::istringstream raw(header + "\n" + record + "\n");
    try {
      fit::parse_raw(raw, "r.jsonl");
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string times = R"("min":1,"median":1,"mean":1,"max":1,"std":0,"reps":1)";
  EXPECT_EQ(error(R"({"op":"bcast","p":4,"bytes":0,"nodes":2,"ranks_per_node":1,)" + times + "}"),
            "r.jsonl:2: nodes: nodes x ranks_per_node (2 x 1) must equal p (4)");
  EXPECT_EQ(error(R"({"op":"bcast","p":4,"bytes":0,"nodes":2,)" + times + "}"),
            "r.jsonl:2: ranks_per_node: missing (nodes and ranks_per_node go together)");
  EXPECT_EQ(error(R"({"op":"bcast","p":4,"bytes":0,"nodes":2,"ranks_per_node":2,)" + times + "}"), "");
  EXPECT_EQ(error("", R"({"augur_raw":1,"settings":{"ranks_per_node":0}})"),
            "r.jsonl:1: settings.ranks_per_node: must be an integer >= 1");
}

TEST(NodeLevels, ModelFileRoundTripsAndOldFilesHaveNoNodes) {
  const auto& m = two_level();
  const auto again = model::parse_model(model::to_json(m).dump(), "again.json");
  ASSERT_TRUE(again.nodes);
  EXPECT_EQ(model::to_json(again), model::to_json(m));
  EXPECT_FALSE(model::load_model_file(AUGUR_TEST_DATA "/timecalc.json").nodes);
}

TEST(NodeLevels, LoaderNamesFieldAndReason) {
  EXPECT_EQ(load_error(with_nodes([](auto& n) { n["ranks_per_node"] = 1; })),
            "m.json: nodes.ranks_per_node: must be an integer in 2..1048576");
  EXPECT_EQ(load_error(with_nodes([](auto& n) { n.erase("on_node"); })),
            "m.json: nodes: missing required field 'on_node'");
  EXPECT_NE(load_error(with_nodes([](auto& n) { n["on_node"]["bcast"] = n["placements"][0]["operations"]["bcast"]; }))
                .find("m.json: nodes.on_node.bcast: 'bcast' is not a point-to-point operation"),
            std::string::npos);
  EXPECT_EQ(load_error(with_nodes([](auto& n) { n["placements"][0]["ranks_per_node"] = 4; })),
            "m.json: nodes.placements[0].ranks_per_node: must be at most the node's size, nodes.ranks_per_node (2)");
  EXPECT_EQ(load_error(with_nodes([](auto& n) { n["placements"].push_back(n["placements"][0]); })),
            "m.json: nodes.placements[1].ranks_per_node: 2 ranks a node is already given");
  EXPECT_EQ(load_error(with_nodes([](auto& n) { n["colour"] = 1; })), "m.json: nodes: unknown field 'colour'");
}

TEST(Placement, BlockCyclicAndTable) {
  const auto block = timing::Placement::block(4);
  EXPECT_TRUE(block.same_node(0, 3));
  EXPECT_FALSE(block.same_node(3, 4));
  EXPECT_EQ(block.shape_of_first(10), (timing::NodesAndRanks{3, 4}));
  EXPECT_EQ(block.shape_of_first(2), (timing::NodesAndRanks{1, 2}));
  const auto cyclic = timing::Placement::cyclic(2, 8);  // 4 nodes, rank r on node r mod 4
  EXPECT_TRUE(cyclic.same_node(1, 5));
  EXPECT_FALSE(cyclic.same_node(0, 1));
  EXPECT_EQ(cyclic.shape_of_first(2), (timing::NodesAndRanks{2, 1}));
  const int members[] = {0, 4, 1};
  EXPECT_EQ(cyclic.shape(members), (timing::NodesAndRanks{2, 2}));
  EXPECT_EQ(cyclic.shape_of_first(8), (timing::NodesAndRanks{4, 2}));
  EXPECT_EQ(cyclic.shape_of_first(3), (timing::NodesAndRanks{3, 1}));
  EXPECT_EQ(timing::Placement::block(3).shape_of_first(2147483647), (timing::NodesAndRanks{715827883, 3}));
  const auto table = timing::parse_placement_table("# srun -l hostname\n0: a\n1: b\n2: a\n3 b\n", "nodes.txt");
  EXPECT_TRUE(table.same_node(0, 2));
  EXPECT_FALSE(table.same_node(0, 1));
  EXPECT_EQ(table.shape_of_first(4), (timing::NodesAndRanks{2, 2}));
  EXPECT_THROW(table.shape_of_first(5), std::invalid_argument);
  EXPECT_TRUE(timing::Placement{}.one_a_node());
  EXPECT_EQ(timing::Placement{}.shape_of_first(5), (timing::NodesAndRanks{5, 1}));
}

TEST(Placement, TableErrorsNameLine) {
  auto error = [](const std::string& text) {
    try {
      timing::parse_placement_table(text, "nodes.txt");
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error("0 a\n0 b\n"), "nodes.txt:2: rank 0 is given twice");
  EXPECT_EQ(error("0 a\n2 b\n"), "nodes.txt: rank 1 has no line (ranks must be 0…2 each once)");
  EXPECT_EQ(error("x a\n"), "nodes.txt:1: RANK must be a whole number 0…999999999, not 'x'");
  EXPECT_EQ(error("\n# none\n"), "nodes.txt: no ranks (expected a line `RANK NODE` for each rank)");
}

TEST(NodeLevels, CalcGivesEachLevelItsLaw) {
  const auto& m = two_level();
  const auto on_node = ask("pingpong", 2, 8, timing::Placement::block(2));
  EXPECT_EQ(on_node.seconds.avg, law(m.nodes->on_node.at("pingpong"), 2, 8));
  EXPECT_EQ(on_node.level, "on one node");
  const auto between = ask("pingpong", 2, 8, timing::Placement::block(1));
  EXPECT_EQ(between.seconds.avg, law(m.operations.at("pingpong"), 2, 8));
  EXPECT_EQ(between.level, "between nodes");
  EXPECT_LT(on_node.seconds.avg * 10, between.seconds.avg);
}

TEST(NodeLevels, CalcCollectiveMeasuredOrComposed) {
  const auto& m = two_level();
  const auto measured = ask("bcast", 4, 4096, timing::Placement::block(2));
  EXPECT_EQ(measured.seconds.avg, law(m.nodes->placements.at(2).at("bcast"), 4, 4096));
  EXPECT_EQ(measured.level, "measured at 2 ranks a node");
  // allreduce was measured one rank a node only: up a node's tree, between the 2 nodes, down again.
  const auto composed = ask("allreduce", 4, 4096, timing::Placement::block(2));
  const double tree = law(m.nodes->on_node.at("pingpong"), 2, 4096);  // ⌈log2 2⌉ = 1 hop
  EXPECT_DOUBLE_EQ(composed.seconds.avg, tree + law(m.operations.at("allreduce"), 2, 4096) + tree);
  EXPECT_EQ(composed.regime, nullptr);
  // 4 ranks a node on one node: two hops up, two down, no between-nodes phase.
  EXPECT_DOUBLE_EQ(ask("allreduce", 4, 4096, timing::Placement::block(4)).seconds.avg, 4 * tree);
}

TEST(NodeLevels, OneLevelModelIgnoresPlacement) {
  const auto m = model::load_machine("sp2-mpl");
  const timing::Rules plain(m);
  const timing::LevelRules levels(m, timing::Placement::block(4));
  for (const char* op : {"bcast", "allreduce", "barrier"})
    for (int p : {2, 8, 16}) {
      const int ranks[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
      EXPECT_EQ(levels.collective_duration(op, std::span(ranks, p), 1000, false), plain.collective_duration(op, p, 1000, false));
    }
  EXPECT_EQ(&levels.pair(0, 1), &levels.between_nodes());
  const calc::Question q{"pingpong", 2, 8};
  EXPECT_EQ(calc::ask(m, q, timing::Placement::block(2)).seconds.avg, calc::ask(m, q).seconds.avg);
}

TEST(NodeLevels, SimPricesEachMessageByItsPair) {
  const auto& m = two_level();
  // Rank 0 sends 4 KiB to rank 1 (its node) and then to rank 2 (the other node).
  const auto program = sim::parse_schedule(R"(ranks 4
rank 0 { send 1 4KiB send 2 4KiB }
rank 1 { recv 0 }
rank 2 { recv 0 })",
                                           "two.sched");
  const sim::ModelNetwork net(m, model::Bound::avg, timing::Placement::block(2));
  const auto r = sim::simulate(*program, net);
  const timing::Rules between(m);
  const auto on_node_model = m.on_node_level();
  const timing::Rules on_node(on_node_model);
  const double first = on_node.send_busy(timing::SendMode::standard, 4096);
  EXPECT_DOUBLE_EQ(r.ranks[1].finish, on_node.receive_end(0, 0, false, 4096));
  EXPECT_DOUBLE_EQ(r.ranks[2].finish, between.receive_end(first, first, false, 4096));
  // One rank a node: both messages between nodes.
  const sim::ModelNetwork flat(m, model::Bound::avg, timing::Placement::block(1));
  EXPECT_DOUBLE_EQ(sim::simulate(*program, flat).ranks[1].finish, between.receive_end(0, 0, false, 4096));
}

// Two ranks of one node exchanging with MPI_Sendrecv and receiving: every price, the sendrecv's
// floor and the receive's wait included, is the on-node level's, as if that level were the
// whole machine; and the reverse profiler prices them so (its rules by the pair's level).
TEST(NodeLevels, SimPricesSendrecvByItsPairsLevel) {
  const auto& m = two_level();
  const auto program = sim::parse_schedule(R"(ranks 4
rank 0 { sendrecv 1 1 8 sendrecv 1 1 4KiB recv 1 }
rank 1 { sendrecv 0 0 8 sendrecv 0 0 4KiB send 0 64 })",
                                           "pair.sched");
  const auto on_node_model = m.on_node_level();
  const sim::ModelNetwork placed(m, model::Bound::avg, timing::Placement::block(2));
  const sim::ModelNetwork on_node(on_node_model, model::Bound::avg);
  const sim::ModelNetwork between(m, model::Bound::avg);
  const auto r = sim::simulate(*program, placed);
  const auto alone = sim::simulate(*program, on_node);
  for (int rank : {0, 1}) {
    EXPECT_DOUBLE_EQ(r.ranks[rank].finish, alone.ranks[rank].finish) << rank;
    EXPECT_LT(r.ranks[rank].finish, sim::simulate(*program, between).ranks[rank].finish) << rank;
  }
}

TEST(NodeLevels, SimCollectiveAtPlacement) {
  const auto& m = two_level();
  const auto program = sim::parse_schedule("ranks 4\nranks 0..3 { allreduce 4096 bcast 4096 root=0 }", "c.sched");
  const sim::ModelNetwork net(m, model::Bound::avg, timing::Placement::block(2));
  const timing::LevelRules rules(m, timing::Placement::block(2));
  const timing::NodesAndRanks shape{2, 2};
  const double allreduce = rules.collective_duration("allreduce", 4, shape, 4096, false);
  EXPECT_EQ(rules.pricing("allreduce", shape), timing::CollectivePricing::composed);
  EXPECT_EQ(rules.pricing("bcast", shape), timing::CollectivePricing::measured);
  const double bcast = rules.collective_duration("bcast", 4, shape, 4096, true);
  EXPECT_DOUBLE_EQ(bcast, law(m.nodes->placements.at(2).at("bcast"), 4, 4096));
  EXPECT_DOUBLE_EQ(sim::simulate(*program, net).ranks[0].finish, allreduce + bcast);
}

namespace {

// One message of 4 KiB from rank 0 to `to`, of 4 ranks, as a schedule and as a GOAL file.
std::unique_ptr<sim::Program> one_message(int to) {
  return sim::parse_schedule(fmt::format("ranks 4\nrank 0 {{ send {} 4KiB }}\nrank {} {{ recv 0 }}", to, to), "one.sched");
}

std::unique_ptr<sim::GoalProgram> one_goal_message(int to) {
  return sim::parse_goal(fmt::format("num_ranks 4\nrank 0 {{\nl1: send 4096b to {} tag 0\n}}\nrank {} {{\nl1: recv "
                                     "4096b from 0 tag 0\n}}",
                                     to, to),
                         "one.goal");
}

// The finish of the message's receiver on `net`, from the schedule and from the GOAL file.
std::pair<double, double> receiver_finish(int to, const sim::Network& net) {
  return {sim::simulate(*one_message(to), net).ranks[to].finish,
          sim::simulate(*one_goal_message(to), net).ranks[to].finish};
}

}  // namespace

// Each network of `augur sim` prices a message by its pair's level, from a schedule and from a
// GOAL file alike: on one node as the on-node level alone would, between nodes as the model of
// one level would; and the two levels' prices differ, so the test tells them apart.
TEST(NodeLevels, EveryNetworkPricesSchedulesAndGoalFilesByLevel) {
  const auto& m = two_level();
  const auto on_node_model = m.on_node_level();
  const auto block2 = timing::Placement::block(2);
  const sim::ModelNetwork model_placed(m, model::Bound::avg, block2), model_on(on_node_model, model::Bound::avg),
      model_flat(m, model::Bound::avg);
  const sim::LogGOPSNetwork loggops_placed(m, model::Bound::avg, block2), loggops_on(on_node_model, model::Bound::avg),
      loggops_flat(m, model::Bound::avg);
  const std::pair<const sim::Network*, const sim::Network*> on_and_flat[] = {{&model_on, &model_flat},
                                                                             {&loggops_on, &loggops_flat}};
  const sim::Network* placed[] = {&model_placed, &loggops_placed};
  for (int n = 0; n < 2; ++n) {
    const auto& [on, flat] = on_and_flat[n];
    SCOPED_TRACE(placed[n]->describe());
    const auto same_node = receiver_finish(1, *placed[n]);
    EXPECT_EQ(same_node, receiver_finish(1, *on));
    EXPECT_NE(same_node.first, receiver_finish(1, *flat).first);
    EXPECT_EQ(receiver_finish(2, *placed[n]), receiver_finish(2, *flat));
  }
  // A model of one level ignores the placement.
  const auto one_level = model::load_machine("t3d");
  const sim::LogGOPSNetwork flat(one_level, model::Bound::avg), given(one_level, model::Bound::avg, block2);
  EXPECT_EQ(receiver_finish(1, given), receiver_finish(1, flat));
  EXPECT_EQ(&given.between(0, 1), &given);
}

// augur analyze on a machine of nodes: the critical path charges a message between two ranks of
// one node the on-node level's undisturbed price, and a collective the law of its placement.
TEST(NodeLevels, AnalyzePricesEachMessageAndCollectiveByPlacement) {
  const auto& m = two_level();
  const sim::ModelNetwork placed(m, model::Bound::avg, timing::Placement::block(2)), flat(m, model::Bound::avg);
  const auto on_node_model = m.on_node_level();
  const timing::Rules on_node(on_node_model), between(m);
  // Run between nodes (the slower level), then analysed with ranks 0 and 1 on one node.
  const auto program = sim::parse_schedule("ranks 4\nrank 0 { compute 10us send 1 4KiB }\nrank 1 { recv 0 }", "a.sched");
  const auto run = analyze::resimulate(*program, analyze::make_setup([&] {
                                         return std::make_unique<sim::ModelNetwork>(m, model::Bound::avg);
                                       })).trace;
  const double placed_path = analyze::analyze_trace(run, analyze::MessageCosts(&placed)).path.length;
  EXPECT_DOUBLE_EQ(placed_path, 10e-6 + on_node.receive_end(0, 0, false, 4096));
  EXPECT_DOUBLE_EQ(analyze::analyze_trace(run, analyze::MessageCosts(&flat)).path.length,
                   10e-6 + between.receive_end(0, 0, false, 4096));
  const int world[] = {0, 1, 2, 3};
  EXPECT_DOUBLE_EQ(analyze::MessageCosts(&placed).collective("bcast", world, 4096, true),
                   law(m.nodes->placements.at(2).at("bcast"), 4, 4096));
  const double send_placed = analyze::MessageCosts(&placed).call("send", 0, 4096);
  EXPECT_DOUBLE_EQ(send_placed, std::min(on_node.send_busy(timing::SendMode::standard, 4096),
                                         between.send_busy(timing::SendMode::standard, 4096)));
}

// LogGOPS terms given by hand for each level (--loggops, --loggops-on-node): LogGOPSim's rules,
// the receiver's processor handling each message on arrival, with each pair's level's terms.
TEST(NodeLevels, GivenLogGOPSTermsOfEachLevelPriceEachPair) {
  const auto between = sim::parse_loggops("L=5us,o=1.5us,g=1us,G=6ns");
  const auto on_node = sim::parse_loggops("L=0.2us,o=0.1us,g=0.1us,G=0.1ns");
  const sim::LogGOPSNetwork placed(between, on_node, timing::Placement::block(2)), alone_between(between),
      alone_on_node(on_node);
  EXPECT_TRUE(placed.handles_on_arrival());
  const auto same_node = receiver_finish(1, placed);
  EXPECT_EQ(same_node, receiver_finish(1, alone_on_node));
  EXPECT_NE(same_node.first, receiver_finish(1, alone_between).first);
  EXPECT_EQ(receiver_finish(2, placed), receiver_finish(2, alone_between));
  // On one node, as LogGOPSim's rules give it: o + L + o + (n − 1)·G for a lone message.
  EXPECT_NEAR(same_node.first, 0.1e-6 + 0.2e-6 + 0.1e-6 + 4095 * 0.1e-9, 1e-15);
}
