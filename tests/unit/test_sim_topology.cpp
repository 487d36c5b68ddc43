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

// The Cascade layout: 4 groups of 2 chassis of 3 routers, 2 nodes a router: 24 routers, 48
// nodes; 48 node links, 3 in each of 8 chassis, 3 between the chassis of each of 4 groups, 6
// between groups. Group i's link to group j leaves from its j-th router (chassis j / 3, position
// j mod 3).
TEST(SimTopology, CascadeDragonflyHasItsLinks) {
  auto m = generate_topology("dragonfly:4,2,3,2");
  EXPECT_EQ(m.name, "dragonfly:4,2,3,2");
  EXPECT_EQ(m.nodes(), 48);
  EXPECT_EQ(m.switches, 24);
  EXPECT_EQ(m.links.size(), 48u + 24 + 12 + 6);
  std::map<std::pair<int, int>, int> between;
  for (const auto& l : m.links) {
    const int a = l.ends[0] - m.nodes(), b = l.ends[1] - m.nodes();
    if (a < 0 || a / 6 == b / 6) continue;
    ++between[{a / 6, b / 6}];
    EXPECT_EQ(a % 6, b / 6);
    EXPECT_EQ(b % 6, a / 6);
  }
  EXPECT_EQ(between.size(), 6u);
  for (auto [pair, n] : between) EXPECT_EQ(n, 1);
}

// Minimal routing: at most one global link, none within a group; in a group, position first,
// then chassis. Node 0 (group 0, chassis 0, router 0) to node 46 (group 3, chassis 1, router 2):
// up to router 48, along chassis 0's position 0 to chassis 1 (router 51: group 0's third), across
// to group 3's router 0 (66), to its position 2 (68), to its chassis 1 (71), down to node 46.
TEST(SimTopology, CascadeDragonflyRoutesMinimally) {
  auto m = generate_topology("dragonfly:4,2,3,2");
  EXPECT_EQ(path(m, 0, 46), (std::vector<int>{48, 51, 66, 68, 71, 46}));
  EXPECT_EQ(hops(m, 0, 1), 2u);   // one router
  EXPECT_EQ(hops(m, 0, 2), 3u);   // one chassis
  EXPECT_EQ(hops(m, 0, 6), 3u);   // the same position in the next chassis
  EXPECT_EQ(hops(m, 0, 10), 4u);  // another position in the next chassis
  const Router r(m);
  std::size_t longest = 0;
  for (int a = 0; a < m.nodes(); ++a)
    for (int b = 0; b < m.nodes(); ++b) {
      const auto route = r.route(a, b);
      int global = 0;
      for (auto c : route.channels) {
        const auto& ends = m.links[c / 2].ends;
        global += ends[0] >= m.nodes() && (ends[0] - m.nodes()) / 6 != (ends[1] - m.nodes()) / 6;
      }
      EXPECT_EQ(global, a / 12 != b / 12 ? 1 : 0) << a << " -> " << b;
      longest = std::max(longest, route.channels.size());
    }
  EXPECT_EQ(longest, 7u);  // up, position, chassis, across, position, chassis, down
  EXPECT_EQ(hops(generate_topology("dragonfly:4,1,4,1"), 0, 15), 5u);
}

TEST(SimTopology, DragonflySpecErrorsNameTheField) {
  auto message = [](const char* spec) {
    try {
      generate_topology(spec);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("dragonfly:4,0,3,2"), "topology: dragonfly: chassis must be at least 1, not 0");
  EXPECT_EQ(message("dragonfly:4,2,x,2"), "topology: routers 'x' is not a whole number");
  EXPECT_EQ(message("dragonfly:8,1,4,2"),
            "topology: dragonfly: groups 8 exceeds the routers of a group (1 chassis × 4 routers), one per global link");
  EXPECT_NE(message("dragonfly:4,2").find("dragonfly takes A,P,H"), std::string::npos);
  EXPECT_EQ(message("dragonfly:2,0,1"), "topology: dragonfly: p (nodes a router) must be at least 1, not 0");
}

// memory= gives each node a link to itself, its memory, which messages between its ranks cross.
TEST(SimTopology, MemoryIsALinkFromANodeToItself) {
  auto m = generate_topology("star:2,cores=4,memory=20GB/s,memory_latency=50ns");
  ASSERT_EQ(m.links.size(), 4u);
  EXPECT_EQ(m.links[2].ends, (std::vector<int>{0, 0}));
  EXPECT_EQ(m.links[3].bandwidth, 20e9);
  EXPECT_DOUBLE_EQ(m.links[3].latency, 50e-9);  // "50ns" is parsed as 50 × 1e-9
  const Router r(m);
  EXPECT_EQ(r.route(1, 1).channels, std::vector<std::uint32_t>{6});
  EXPECT_DOUBLE_EQ(r.route(1, 1).latency, 50e-9);
  EXPECT_EQ(channel_name(m, 6), "n1 memory");
  EXPECT_FALSE(is_channel(m, 7));
  EXPECT_TRUE(Router(generate_topology("star:2")).route(1, 1).channels.empty());
  auto on_switch = m;
  on_switch.links.push_back({.ends = {2, 2}, .bandwidth = 1});
  EXPECT_THROW(validate(on_switch), std::invalid_argument);
  auto twice = m;
  twice.links.push_back({.ends = {1, 1}, .bandwidth = 1});
  EXPECT_THROW(validate(twice), std::invalid_argument);
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
