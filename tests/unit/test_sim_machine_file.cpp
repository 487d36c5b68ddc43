// Machine files (docs/machine-format.md): what they describe, and errors that name the file,
// the field and the reason.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "model/error.hpp"
#include "sim/network/machine_json.hpp"
#include "sim/network/routing.hpp"

// The file's own names, apart from other test files' when a unity build (AUGUR_UNITY) joins them.
namespace test_sim_machine_file {
namespace {

using namespace augur;
using namespace augur::sim;

namespace {

// Two dual-core nodes and a slow one behind a switch; node 2's link is half duplex.
constexpr const char* kLab = R"({
  "augur_machine": 1, "name": "lab",
  "node_types": [{"name": "fast", "cores": 2, "speed": 2}, {"name": "slow"}],
  "nodes": [{"type": "fast", "count": 2}, "slow"],
  "switches": 1,
  "links": [
    {"connect": ["n0", "s0"], "latency": "5us", "bandwidth": "1GB/s"},
    {"connect": ["n1", "s0"], "latency": 5e-6, "bandwidth": 1e9},
    {"connect": ["n2", "s0"], "latency": "50us", "bandwidth": "100MB/s", "duplex": "half"}],
  "hop_latency": "1us",
  "mapping": "round-robin"
})";

std::string error_of(const std::string& text) {
  try {
    parse_machine(text, "m.json");
  } catch (const model::ModelError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST(SimMachineFile, DescribesNodesLinksAndMapping) {
  auto m = parse_machine(kLab, "lab.json");
  EXPECT_EQ(m.name, "lab");
  EXPECT_EQ(m.nodes(), 3);
  EXPECT_EQ(m.vertices(), 4);
  EXPECT_EQ(m.type_of_node(1).cores, 2);
  EXPECT_DOUBLE_EQ(m.type_of_node(0).speed, 2);
  EXPECT_EQ(m.type_of_node(2).name, "slow");
  EXPECT_FALSE(m.links[2].full_duplex);
  EXPECT_DOUBLE_EQ(m.links[2].bandwidth, 1e8);
  EXPECT_EQ(m.node_of(4), 1);
  auto route = Router(m).route(0, 2);
  EXPECT_EQ(route.channels.size(), 2u);
  EXPECT_DOUBLE_EQ(route.latency, 5e-6 + 50e-6 + 2e-6);
}

TEST(SimMachineFile, BlockMappingFillsTheCores) {
  std::string text = kLab;
  text.replace(text.find("\"round-robin\""), 13, "\"block\"");
  auto m = parse_machine(text, "lab.json");
  EXPECT_EQ(m.node_of(0), 0);
  EXPECT_EQ(m.node_of(1), 0);
  EXPECT_EQ(m.node_of(2), 1);
  EXPECT_EQ(m.node_of(4), 2);
  EXPECT_EQ(m.node_of(5), 0);  // beyond the cores: round again
}

TEST(SimMachineFile, AGeneratedTopologyWithAMappingFile) {
  const auto dir = std::filesystem::temp_directory_path() / "augur_machine_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "ranks.map") << "# rank -> node\n3 2\n1 0\n";
  std::ofstream(dir / "m.json") << R"({"augur_machine": 1, "topology": "torus:2x2,bandwidth=10GB/s",
      "node_type": {"cores": 4}, "mapping": {"file": "ranks.map"}})";
  auto m = load_machine(dir / "m.json");
  EXPECT_EQ(m.nodes(), 4);
  EXPECT_EQ(m.routing, Routing::dimension_order);
  EXPECT_EQ(m.type_of_node(0).cores, 4);
  EXPECT_EQ(m.node_of(0), 3);
  EXPECT_EQ(m.node_of(3), 0);
  std::filesystem::remove_all(dir);
}

TEST(SimMachineFile, ErrorsNameFileFieldAndReason) {
  EXPECT_EQ(error_of(R"({"augur_machine": 1e999})"),
            "m.json: (document): not valid JSON: [json.exception.out_of_range.406] number overflow parsing '1e999'");
  EXPECT_EQ(error_of(R"({"nodes": 2})"), "m.json: (document): missing \"augur_machine\": 1 (the format's version)");
  EXPECT_EQ(error_of(R"({"augur_machine": 1, "nodes": 2, "links": [{"connect": ["n0", "n7"], "bandwidth": 1}]})"),
            "m.json: links[0].connect[1]: 'n7' is not a vertex: n0 … n1 (no switches)");
  EXPECT_EQ(error_of(R"({"augur_machine": 1, "nodes": 2, "links": [{"connect": ["n0", "n1"], "bandwidth": 0}]})"),
            "m.json: links[0].bandwidth: expected a positive number");
  EXPECT_EQ(error_of(R"({"augur_machine": 1, "nodes": 2, "links": [{"connect": ["n0", "n1"]}]})"),
            "m.json: links[0]: missing required field 'bandwidth'");
  EXPECT_EQ(error_of(R"({"augur_machine": 1, "nodes": 3, "links": [{"connect": ["n0", "n1", "n2"], "bandwidth": 1}]})"),
            "m.json: links[0].connect: more than two vertices needs \"shared\": true (a bus)");
  EXPECT_EQ(error_of(R"({"augur_machine": 1, "topology": "ring:4", "links": []})"),
            "m.json: links: not allowed beside \"topology\", which generates the graph");
  EXPECT_EQ(error_of(R"({"augur_machine": 1, "topology": "ring:x"})"),
            "m.json: topology: topology: size 'x' is not a whole number");
  EXPECT_EQ(error_of(R"({"augur_machine": 1, "nodes": 2, "mapping": [0, 5]})"),
            "m.json: mapping[1]: node 5 does not exist (2 nodes)");
  EXPECT_EQ(error_of(R"({"augur_machine": 1, "nodes": 4, "routing": "dimension_order", "dims": [3]})"),
            "m.json: routing: dimension order needs dims whose product is the number of nodes");
  EXPECT_EQ(error_of(R"({"augur_machine": 1, "nodes": 2, "colour": 1})"), "m.json: (document): unknown field 'colour'");
}

// Two 2-ary 2-trees (4 nodes, 4 switches and 8 links each) joined through one backbone switch
// by their first top switches: nodes n0 … n7, the backbone s0, then each tree's switches. A
// message from tree 0 to tree 1 climbs its tree, crosses the backbone and descends: 6 links.
TEST(SimMachineFile, PartsAreJoinedWithoutListingTheirLinks) {
  const auto m = parse_machine(R"({"augur_machine": 1, "parts": ["fattree:2,2", "fattree:2,2,bandwidth=10GB/s"],
      "switches": 1, "node_type": {"cores": 16},
      "links": [{"connect": ["p0.s2", "s0"], "bandwidth": "1GB/s", "latency": "10us"},
                {"connect": ["p1.s2", "s0"], "bandwidth": "1GB/s", "latency": "10us"}]})",
                               "two.json");
  EXPECT_EQ(m.name, "fattree:2,2 + fattree:2,2");
  EXPECT_EQ(m.nodes(), 8);
  EXPECT_EQ(m.switches, 9);
  ASSERT_EQ(m.links.size(), 18u);
  EXPECT_EQ(m.links[8].ends, (std::vector<int>{4, 13}));  // tree 1's node 0 on its switch 0 (vertex 8 + 1 + 4)
  EXPECT_EQ(m.links[8].bandwidth, 10e9);
  EXPECT_EQ(m.links[16].ends, (std::vector<int>{11, 8}));  // tree 0's switch 2 on the backbone
  EXPECT_EQ(m.type_of_node(7).cores, 16);
  EXPECT_EQ(m.node_of(16), 1);
  const Router r(m);
  EXPECT_EQ(r.route(0, 1).channels.size(), 2u);
  const auto across = r.route(0, 7);
  EXPECT_EQ(across.channels.size(), 6u);
  EXPECT_DOUBLE_EQ(across.latency, 4e-6 + 20e-6);

  EXPECT_EQ(error_of(R"({"augur_machine": 1, "parts": ["fattree:2,2"], "links": [{"connect": ["p1.s0", "p0.s0"], "bandwidth": 1}]})"),
            "m.json: links[0].connect[0]: 'p1.s0': there is no part 1 (parts p0 … p0)");
  EXPECT_EQ(error_of(R"({"augur_machine": 1, "parts": ["fattree:2,2"], "links": [{"connect": ["p0.s4", "p0.s0"], "bandwidth": 1}]})"),
            "m.json: links[0].connect[0]: 'p0.s4': part 0 has 4 switches");
  EXPECT_EQ(error_of(R"({"augur_machine": 1, "parts": ["fattree:2,2", "star:0"]})"),
            "m.json: parts[1]: star: needs at least 1 node");
  EXPECT_EQ(error_of(R"({"augur_machine": 1, "parts": ["ring:2"], "nodes": 2})"),
            "m.json: nodes: not allowed beside \"parts\", which generate the graph");
  // Found by fuzz_machine_file: a link without "connect" escaped as json's own out_of_range.
  EXPECT_EQ(error_of(R"({"augur_machine": 1, "parts": ["ring:2"], "links": [{"bandwidth": 1}]})"),
            "m.json: links[0]: missing required field 'connect'");
  EXPECT_EQ(error_of(R"({"augur_machine": 1, "nodes": 2, "links": [{"latency": 1}]})"),
            "m.json: links[0]: missing required field 'connect'");
}

}  // namespace
}  // namespace test_sim_machine_file
