// The topology generators and their routing: link counts and route lengths counted by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <stdexcept>

#include "sim/network/routing.hpp"
#include "sim/network/topologies.hpp"

using namespace augur::sim;

namespace {

std::size_t hops(const Machine& m, int from, int to) { return Router(m).route(from, to).channels.size(); }

// The vertices a route visits after `from`.
std::vector<int> path(const Machine& m, int from, int to) {
  std::vector<int> visited;
  int v = from;
  for (auto c : Router(m).route(from, to).channels) {
    const auto& ends = m.links[c / 2].ends;
    v = ends[0] == v ? ends[1] : ends[0];
    visited.push_back(v);
  }
  return visited;
}

}  // namespace

TEST(SimTopology, RingGoesTheShorterWayRound) {
  auto m = generate_topology("ring:8");
  EXPECT_EQ(m.links.size(), 8u);
  EXPECT_EQ(hops(m, 0, 3), 3u);
  EXPECT_EQ(hops(m, 0, 5), 3u);
  EXPECT_EQ(path(m, 0, 6), (std::vector<int>{7, 6}));
  EXPECT_EQ(path(m, 0, 4), (std::vector<int>{1, 2, 3, 4}));  // a tie goes forward
  EXPECT_EQ(generate_topology("ring:2").links.size(), 1u);
  EXPECT_EQ(generate_topology("ring:1").links.size(), 0u);
}

TEST(SimTopology, MeshRoutesXThenY) {
  auto m = generate_topology("mesh:4x4");
  EXPECT_EQ(m.links.size(), 24u);  // 3 per row and column, 4 rows and 4 columns
  EXPECT_EQ(path(m, 0, 15), (std::vector<int>{1, 2, 3, 7, 11, 15}));
  EXPECT_EQ(path(m, 15, 0), (std::vector<int>{14, 13, 12, 8, 4, 0}));
  EXPECT_EQ(generate_topology("mesh:3x4x5").links.size(), 2u * 4 * 5 + 3 * 3 * 5 + 3 * 4 * 4);
}

TEST(SimTopology, TorusWrapsAround) {
  auto m = generate_topology("torus:4x4");
  EXPECT_EQ(m.links.size(), 32u);
  EXPECT_EQ(path(m, 0, 15), (std::vector<int>{3, 15}));
  EXPECT_EQ(generate_topology("torus:4x4x4").links.size(), 192u);
  EXPECT_EQ(hops(generate_topology("torus:4x4x4"), 0, 42), 6u);  // (2, 2, 2): two each way round
  EXPECT_EQ(generate_topology("torus:2x2").links.size(), 4u);    // a side of 2 has no second link
}

TEST(SimTopology, HypercubeCrossesOneLinkPerDifferingBit) {
  auto m = generate_topology("hypercube:4");
  EXPECT_EQ(m.nodes(), 16);
  EXPECT_EQ(m.links.size(), 32u);
  EXPECT_EQ(hops(m, 0, 15), 4u);
  EXPECT_EQ(hops(m, 5, 6), 2u);
}

TEST(SimTopology, FatTreeMeetsAtTheLowestCommonLevel) {
  auto small = generate_topology("fattree:2,2");
  EXPECT_EQ(small.nodes(), 4);
  EXPECT_EQ(small.switches, 4);
  EXPECT_EQ(small.links.size(), 8u);
  EXPECT_EQ(hops(small, 0, 1), 2u);
  EXPECT_EQ(hops(small, 0, 2), 4u);
  auto m = generate_topology("fattree:4,3");
  EXPECT_EQ(m.nodes(), 64);
  EXPECT_EQ(m.switches, 48);
  EXPECT_EQ(m.links.size(), 192u);
  EXPECT_EQ(hops(m, 0, 3), 2u);
  EXPECT_EQ(hops(m, 0, 4), 4u);
  EXPECT_EQ(hops(m, 0, 16), 6u);
  EXPECT_EQ(hops(m, 63, 0), 6u);
}

// d-mod-k: two flows from one leaf switch to different destinations climb different links.
TEST(SimTopology, FatTreeSpreadsFlowsOverTheUpperLinks) {
  auto m = generate_topology("fattree:2,2");
  Router r(m);
  EXPECT_NE(r.route(0, 2).channels[1], r.route(1, 3).channels[1]);
  EXPECT_EQ(path(m, 0, 2).back(), 2);
}

// a = 4 routers a group, p = 2 nodes a router, h = 2 global links a router: 9 groups, 36
// routers, 72 nodes; 72 node links, 9·6 local and 9·8/2 global links.
TEST(SimTopology, DragonflyGoesLocalGlobalLocal) {
  auto m = generate_topology("dragonfly:4,2,2");
  EXPECT_EQ(m.nodes(), 72);
  EXPECT_EQ(m.switches, 36);
  EXPECT_EQ(m.links.size(), 72u + 54 + 36);
  EXPECT_EQ(hops(m, 0, 1), 2u);  // one router
  EXPECT_EQ(hops(m, 0, 2), 3u);  // one group
  int longest = 0;
  for (int to = 0; to < m.nodes(); ++to) longest = std::max(longest, static_cast<int>(hops(m, 0, to)));
  EXPECT_EQ(longest, 5);
  // One global link between every two groups, two from every router.
  std::map<std::pair<int, int>, int> between;
  std::vector<int> global(m.switches);
  for (const auto& l : m.links) {
    const int a = l.ends[0] - m.nodes(), b = l.ends[1] - m.nodes();
    if (a < 0 || a / 4 == b / 4) continue;
    ++between[{a / 4, b / 4}], ++global[a], ++global[b];
  }
  EXPECT_EQ(between.size(), 36u);
  for (auto [pair, n] : between) EXPECT_EQ(n, 1);
  for (int n : global) EXPECT_EQ(n, 2);
}

TEST(SimTopology, StarAndBus) {
  auto s = generate_topology("star:5");
  EXPECT_EQ(s.links.size(), 5u);
  EXPECT_EQ(hops(s, 1, 4), 2u);
  auto b = generate_topology("bus:4");
  ASSERT_EQ(b.links.size(), 1u);
  Router r(b);
  EXPECT_EQ(r.route(0, 3).channels, std::vector<std::uint32_t>{0});
  EXPECT_EQ(r.route(3, 0).channels, std::vector<std::uint32_t>{0});  // one medium both ways
}

TEST(SimTopology, FullDuplexHasAChannelPerDirection) {
  Router full(generate_topology("ring:4"));
  EXPECT_NE(full.route(0, 1).channels, full.route(1, 0).channels);
  auto half = generate_topology("ring:4,duplex=half");
  EXPECT_EQ(Router(half).route(0, 1).channels, Router(half).route(1, 0).channels);
}

TEST(SimTopology, OptionsSetTheLinksAndNodes) {
  auto m = generate_topology("torus:4x4,latency=2us,bandwidth=1GB/s,cores=2,speed=1.5");
  EXPECT_DOUBLE_EQ(m.links[0].bandwidth, 1e9);
  EXPECT_DOUBLE_EQ(Router(m).route(0, 5).latency, 4e-6);
  EXPECT_EQ(m.node_types[0].cores, 2);
  EXPECT_DOUBLE_EQ(m.node_types[0].speed, 1.5);
  EXPECT_EQ(m.node_of(3), 1);  // block: two ranks a node
  m.mapping = Mapping::round_robin;
  EXPECT_EQ(m.node_of(17), 1);
}

TEST(SimTopology, BadSpecificationsSayWhy) {
  for (const char* bad : {"ring", "torus:4xq", "blob:3", "ring:4,foo=1", "fattree:4", "ring:4,duplex=quarter",
                          "ring:4,bandwidth=0"})
    EXPECT_THROW(generate_topology(bad), std::invalid_argument) << bad;
  try {
    generate_topology("torus:4x4,colour=red");
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("unknown option 'colour'"), std::string::npos);
  }
}

TEST(SimTopology, BandwidthsReadInBytesOrBitsPerSecond) {
  EXPECT_DOUBLE_EQ(parse_bandwidth("10GB/s"), 10e9);
  EXPECT_DOUBLE_EQ(parse_bandwidth("100MiB/s"), 100.0 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(parse_bandwidth("1Gbit/s"), 125e6);
  EXPECT_DOUBLE_EQ(parse_bandwidth("100Mbit/s"), 12.5e6);
  EXPECT_DOUBLE_EQ(parse_bandwidth("8bit/s"), 1);
  for (const char* bad : {"fast", "bit/s", "-1GB/s", "0"}) EXPECT_THROW(parse_bandwidth(bad), std::invalid_argument) << bad;
}
