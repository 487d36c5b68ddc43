// A machine of nodes as a user meets it (docs/nodes.md): `augur fit` of records across nodes,
// `augur machines` with both levels, `augur calc` and `augur sim` at a placement, and the errors
// of a bad placement.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "augur_runner.hpp"

using augur_test::augur;
using augur_test::temp_file;

namespace {

const std::string kData = AUGUR_TEST_DATA;

// The model fitted from tests/data/two-level.raw.jsonl, once.
const std::string& two_level_model() {
  static const std::string path = [] {
    const auto out = temp_file("two-level.model.json", "");
    const auto r = augur("fit " + kData + "/two-level.raw.jsonl -o " + out);
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("a machine of nodes, 2 ranks a node"), std::string::npos) << r.out;
    return out;
  }();
  return path;
}

nlohmann::json calc(const std::string& question) {
  const auto r = augur("calc --json --machine " + two_level_model() + " " + question);
  EXPECT_EQ(r.status, 0) << r.out;
  return nlohmann::json::parse(r.out, nullptr, false);
}

}  // namespace

TEST(NodesCli, CalcGivesBothLevels) {
  const auto on_node = calc("pingpong 2 8 --ranks-per-node 2");
  const auto between = calc("pingpong 2 8 --ranks-per-node 1");
  EXPECT_EQ(on_node["placement"]["level"], "on one node");
  EXPECT_EQ(between["placement"]["level"], "between nodes");
  EXPECT_LT(on_node["seconds"]["avg"].get<double>() * 10, between["seconds"]["avg"].get<double>());
  // Two ranks dealt round ⌈2 / 2⌉ = 1 node share it; a file may put them anywhere.
  EXPECT_EQ(calc("pingpong 2 8 --ranks-per-node 2 --placement cyclic")["seconds"], on_node["seconds"]);
  const auto apart = temp_file("apart.nodes", "0 a\n1 b\n");
  EXPECT_EQ(calc("pingpong 2 8 --placement " + apart)["seconds"], between["seconds"]);
  EXPECT_EQ(calc("pingpong 2 8 --placement " + kData + "/placement.nodes")["seconds"], on_node["seconds"]);
  const auto composed = calc("allreduce 4 4KiB --ranks-per-node 2");
  EXPECT_EQ(composed["regime"], nullptr);
  EXPECT_NE(composed["placement"]["level"].get<std::string>().find("composed"), std::string::npos);
}

TEST(NodesCli, MachinesShowsBothLevels) {
  const auto r = augur("machines " + two_level_model());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("nodes: 2 ranks a node"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("measured at 2 ranks a node: bcast"), std::string::npos) << r.out;
}

TEST(NodesCli, BadPlacementNamesFileAndLine) {
  const auto file = temp_file("bad.nodes", "0 a\n0 b\n");
  const auto r = augur("calc --machine " + two_level_model() + " pingpong 2 8 --placement " + file);
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find(file + ":2: rank 0 is given twice"), std::string::npos) << r.out;
  const auto zero = augur("calc --machine " + two_level_model() + " pingpong 2 8 --ranks-per-node 0");
  EXPECT_NE(zero.status, 0);
  EXPECT_NE(zero.out.find("--ranks-per-node must be at least 1"), std::string::npos) << zero.out;
}

TEST(NodesCli, SimAppAtThousandsOfRanksAndPlacement) {
  const auto example = kData + "/../../examples/models/stencil-program.json";
  const auto r = augur("sim --json --no-bounds --no-progress --machine " + two_level_model() + " --app " + example +
                       " --ranks 4096 --set n=1024 --ranks-per-node 128");
  ASSERT_EQ(r.status, 0) << r.out.substr(0, 2000);
  const auto flat = augur("sim --json --no-bounds --no-progress --machine " + two_level_model() + " --app " + example +
                          " --ranks 4096 --set n=1024");
  ASSERT_EQ(flat.status, 0) << flat.out.substr(0, 2000);
  EXPECT_EQ(nlohmann::json::parse(r.out)["run"]["placement"], "block, 128 ranks a node");
  EXPECT_EQ(nlohmann::json::parse(flat.out)["run"]["placement"], "one rank a node");
  const double placed = nlohmann::json::parse(r.out)["predicted_seconds"].get<double>();
  const double one_a_node = nlohmann::json::parse(flat.out)["predicted_seconds"].get<double>();
  EXPECT_LT(placed, one_a_node);  // neighbours on one node talk through its memory
}

TEST(NodesCli, DiffComparesEachLevel) {
  const auto both = augur("diff " + two_level_model() + " " + two_level_model());
  ASSERT_EQ(both.status, 0) << both.out;
  EXPECT_NE(both.out.find("Between nodes (each machine's operations, one rank a node):"), std::string::npos) << both.out;
  EXPECT_NE(both.out.find("On one node (two ranks of one node, docs/nodes.md):"), std::string::npos) << both.out;
  const auto json = augur("diff --json " + two_level_model() + " " + two_level_model());
  ASSERT_EQ(json.status, 0) << json.out;
  EXPECT_TRUE(nlohmann::json::parse(json.out).contains("on_node"));
  const auto one = augur("diff " + two_level_model() + " sp2-mpl");
  ASSERT_EQ(one.status, 0) << one.out;
  EXPECT_NE(one.out.find("Only two-nodes-synthetic is a machine of nodes"), std::string::npos) << one.out;
}

TEST(NodesCli, SheetShowsBothLevels) {
  const auto path = temp_file("two-level-sheet.html", "");
  const auto r = augur("sheet " + two_level_model() + " -o " + path);
  ASSERT_EQ(r.status, 0) << r.out;
  const auto html = augur_test::read_text(path);
  EXPECT_NE(html.find("ranks a node"), std::string::npos);
  EXPECT_NE(html.find("MPI_Send/MPI_Recv ping-pong 8 B: on one node / between nodes"), std::string::npos);
  EXPECT_NE(html.find("200.8 ns / 5.064 µs"), std::string::npos);  // the synthetic laws: 0.2 µs + d/10 GB/s, 5 µs + d/125 MB/s
}

// LogGOPS terms of each level by hand: the on-node ones need the between-nodes ones, and a bad
// one is named by its option.
TEST(NodesCli, LogGOPSTermsOnANodeAreCheckedAndUsed) {
  const auto sched = temp_file("pair.sched", "ranks 4\nrank 0 { send 1 8 send 2 8 }\nrank 1 { recv 0 }\nrank 2 { recv 0 }\n");
  const std::string loggops = "sim --json --no-progress --network loggops --loggops L=5us,o=1us,g=1us " + sched;
  const auto placed = augur(loggops + " --ranks-per-node 2 --loggops-on-node L=0.2us,o=0.1us,g=0.1us");
  ASSERT_EQ(placed.status, 0) << placed.out;
  const auto flat = augur(loggops);
  ASSERT_EQ(flat.status, 0) << flat.out;
  const auto finish = [](const std::string& out, int rank) {
    return nlohmann::json::parse(out)["ranks"][rank]["finish"].get<double>();
  };
  EXPECT_LT(finish(placed.out, 1), finish(flat.out, 1));
  const auto alone = augur("sim --json --no-progress --network loggops --loggops L=0.2us,o=0.1us,g=0.1us " + sched);
  ASSERT_EQ(alone.status, 0) << alone.out;
  EXPECT_DOUBLE_EQ(finish(placed.out, 1), finish(alone.out, 1));

  const auto lonely = augur("sim --network loggops " + sched + " --loggops-on-node L=1us");
  EXPECT_EQ(lonely.status, 2) << lonely.out;
  EXPECT_NE(lonely.out.find("--loggops-on-node needs --network loggops --loggops"), std::string::npos) << lonely.out;
  const auto bad = augur(loggops + " --ranks-per-node 2 --loggops-on-node X=1us");
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.out.find("--loggops-on-node: loggops: unknown parameter 'X'"), std::string::npos) << bad.out;
}
