// SimGrid platform export: the XML is read back and its hosts, links and routes checked against
// what the topology is by construction (a crossbar, a torus routed by dimension order, a k-ary
// n-tree routed up then down), and every route walked link by link from its source to its
// destination in the direction SimGrid will use.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "sim/network/machine_json.hpp"
#include "sim/network/simgrid_platform.hpp"
#include "sim/network/topologies.hpp"

using namespace augur::sim;

namespace {

struct XmlLink {
  double bandwidth = 0, latency = 0;
  std::string policy;
  std::vector<std::string> ends;
};
struct Hop {
  int link;
  std::string direction;  // UP, DOWN or empty
};
struct Platform {
  std::map<std::string, std::pair<double, int>> hosts;  // speed (flop/s), cores
  std::map<int, XmlLink> links;
  std::map<std::pair<std::string, std::string>, std::vector<Hop>> routes;
};

std::vector<std::smatch> matches(const std::string& text, const std::regex& re) {
  return {std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()};
}

Platform parse(const std::string& xml) {
  Platform p;
  for (const auto& m : matches(xml, std::regex(R"re(<host id="(\w+)" speed="([^"]+)f" core="(\d+)"/>)re")))
    p.hosts[m[1]] = {std::strtod(m[2].str().c_str(), nullptr), std::stoi(m[3])};
  const std::regex link(
      R"re(<link id="l(\d+)" bandwidth="([^"]+)Bps" latency="([^"]+)s" sharing_policy="(\w+)">\s*<prop id="connects" value="([^"]+)"/>\s*</link>)re");
  for (const auto& m : matches(xml, link)) {
    XmlLink l{std::strtod(m[2].str().c_str(), nullptr), std::strtod(m[3].str().c_str(), nullptr), m[4], {}};
    std::istringstream ends(m[5]);
    for (std::string e; ends >> e;) l.ends.push_back(e);
    p.links[std::stoi(m[1])] = l;
  }
  const std::regex hop(R"re(<link_ctn id="l(\d+)"(?: direction="(UP|DOWN)")?/>)re");
  for (const auto& m : matches(xml, std::regex(R"re(<route src="(\w+)" dst="(\w+)" symmetrical="NO">(.*?)</route>)re"))) {
    std::vector<Hop> hops;
    const std::string body = m[3];
    for (const auto& h : matches(body, hop)) hops.push_back({std::stoi(h[1]), h[2]});
    p.routes[{m[1], m[2]}] = hops;
  }
  return p;
}

// The vertices a route visits after its source, following each link in its stated direction:
// UP goes from the link's first end to its second. Fails the test on a link that does not
// touch the current vertex.
std::vector<std::string> walk(const Platform& p, const std::string& src, const std::string& dst) {
  std::vector<std::string> visited;
  std::string at = src;
  for (const auto& h : p.routes.at({src, dst})) {
    const auto& ends = p.links.at(h.link).ends;
    if (h.direction == "UP") {
      EXPECT_EQ(ends[0], at) << "l" << h.link << " UP on the way " << src << " -> " << dst;
      at = ends[1];
    } else if (h.direction == "DOWN") {
      EXPECT_EQ(ends[1], at) << "l" << h.link << " DOWN on the way " << src << " -> " << dst;
      at = ends[0];
    } else {
      EXPECT_NE(std::find(ends.begin(), ends.end(), at), ends.end());
      at = ends[0] == at ? ends[1] : ends[0];
    }
    visited.push_back(at);
  }
  return visited;
}

std::string node(int n) { return fmt::format("n{}", n); }

// Every ordered pair of distinct hosts has a route, and it arrives.
void expect_all_routes_arrive(const Platform& p, int nodes) {
  EXPECT_EQ(p.routes.size(), static_cast<std::size_t>(nodes * (nodes - 1)));
  for (int a = 0; a < nodes; ++a)
    for (int b = 0; b < nodes; ++b)
      if (a != b) {
        const auto path = walk(p, node(a), node(b));
        ASSERT_FALSE(path.empty());
        EXPECT_EQ(path.back(), node(b));
      }
}

}  // namespace

TEST(SimgridPlatform, StarIsOneSwitchWithAPortPerHost) {
  const auto p = parse(simgrid_platform(generate_topology("star:4,bandwidth=10GB/s,latency=2us")));
  ASSERT_EQ(p.hosts.size(), 4u);
  EXPECT_EQ(p.hosts.at("n3"), (std::pair<double, int>{1e9, 1}));
  ASSERT_EQ(p.links.size(), 4u);
  for (const auto& [id, l] : p.links) {
    EXPECT_EQ(l.policy, "SPLITDUPLEX");
    EXPECT_EQ(l.bandwidth, 10e9);
    EXPECT_EQ(l.latency, 2e-6);
    EXPECT_EQ(l.ends, (std::vector<std::string>{node(id), "s0"}));
  }
  expect_all_routes_arrive(p, 4);
  // Up the sender's own port, down the receiver's.
  const auto& r = p.routes.at({"n1", "n3"});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].link, 1);
  EXPECT_EQ(r[0].direction, "UP");
  EXPECT_EQ(r[1].link, 3);
  EXPECT_EQ(r[1].direction, "DOWN");
}

TEST(SimgridPlatform, TorusRoutesByDimensionOrderAndAddsTheHopLatency) {
  const auto machine = parse_machine(
      R"({"augur_machine": 1, "topology": "torus:4x4,latency=1us", "hop_latency": "250ns",
          "node_type": {"cores": 2, "speed": 1.5}})",
      "torus.json");
  const auto p = parse(simgrid_platform(machine, {.reference_speed = 2e9}));
  ASSERT_EQ(p.hosts.size(), 16u);
  EXPECT_EQ(p.hosts.at("n0"), (std::pair<double, int>{3e9, 2}));
  ASSERT_EQ(p.links.size(), 32u);  // a wrap-around link per node in each dimension
  // Exactly the latency augur gives a hop: the link's own and the machine's per hop.
  for (const auto& [id, l] : p.links) EXPECT_EQ(l.latency, machine.links[id].latency + machine.hop_latency);
  EXPECT_DOUBLE_EQ(p.links.at(0).latency, 1.25e-6);
  expect_all_routes_arrive(p, 16);
  // n = x + 4y. X first, then Y, each the shorter way round.
  EXPECT_EQ(walk(p, "n0", "n5"), (std::vector<std::string>{"n1", "n5"}));
  EXPECT_EQ(walk(p, "n0", "n15"), (std::vector<std::string>{"n3", "n15"}));
  EXPECT_EQ(walk(p, "n5", "n10"), (std::vector<std::string>{"n6", "n10"}));
  EXPECT_EQ(walk(p, "n0", "n10"), (std::vector<std::string>{"n1", "n2", "n6", "n10"}));  // ties go forward
  for (int a = 0; a < 16; ++a)
    for (int b = 0; b < 16; ++b) {
      if (a == b) continue;
      auto ring = [](int from, int to) { return std::min((to - from + 4) % 4, (from - to + 4) % 4); };
      const auto hops = static_cast<std::size_t>(ring(a % 4, b % 4) + ring(a / 4, b / 4));
      EXPECT_EQ(p.routes.at({node(a), node(b)}).size(), hops) << a << " -> " << b;
    }
}

TEST(SimgridPlatform, FatTreeRoutesClimbToWhereTheNodesMeetThenDescend) {
  const auto machine = generate_topology("fattree:2,3");
  const auto p = parse(simgrid_platform(machine));
  ASSERT_EQ(p.hosts.size(), 8u);
  ASSERT_EQ(p.links.size(), 24u);  // 8 node links and 2 levels of 4 switches with 2 links up
  expect_all_routes_arrive(p, 8);
  for (int a = 0; a < 8; ++a)
    for (int b = 0; b < 8; ++b) {
      if (a == b) continue;
      // Nodes meet at the level above their highest differing binary digit.
      const int meet = a / 4 != b / 4 ? 3 : a / 2 != b / 2 ? 2 : 1;
      const auto& r = p.routes.at({node(a), node(b)});
      ASSERT_EQ(r.size(), static_cast<std::size_t>(2 * meet)) << a << " -> " << b;
      for (int i = 0; i < 2 * meet; ++i) EXPECT_EQ(r[i].direction, i < meet ? "UP" : "DOWN") << a << " -> " << b;
    }
}

TEST(SimgridPlatform, HalfDuplexAndBusLinksAreShared) {
  const auto half = parse(simgrid_platform(generate_topology("star:3,duplex=half")));
  for (const auto& [id, l] : half.links) EXPECT_EQ(l.policy, "SHARED");
  EXPECT_EQ(half.routes.at({"n0", "n2"})[1].direction, "");
  expect_all_routes_arrive(half, 3);

  const auto bus = parse(simgrid_platform(generate_topology("bus:4")));
  ASSERT_EQ(bus.links.size(), 1u);
  EXPECT_EQ(bus.links.at(0).ends, (std::vector<std::string>{"n0", "n1", "n2", "n3"}));
  EXPECT_EQ(bus.links.at(0).policy, "SHARED");
  for (const auto& [pair, hops] : bus.routes) EXPECT_EQ(hops.size(), 1u);
}

TEST(SimgridPlatform, HostfileFollowsTheMapping) {
  const auto block = generate_topology("star:3,cores=2");
  EXPECT_EQ(core_count(block), 6);
  EXPECT_EQ(simgrid_hostfile(block, 5), "n0\nn0\nn1\nn1\nn2\n");
  auto spread = block;
  spread.mapping = Mapping::round_robin;
  EXPECT_EQ(simgrid_hostfile(spread, 4), "n0\nn1\nn2\nn0\n");
}

TEST(SimgridPlatform, NamesAreEscaped) {
  auto m = generate_topology("star:2");
  m.name = "a<b & \"c\"";
  const auto xml = simgrid_platform(m);
  EXPECT_NE(xml.find(R"(<zone id="a&lt;b &amp; &quot;c&quot;" routing="Full">)"), std::string::npos);
}

// One chassis a group: SimGrid's own DRAGONFLY cluster, whose minimal routes are augur's.
TEST(SimgridPlatform, CascadeDragonflyIsSimgridsOwnCluster) {
  const auto xml = simgrid_platform(generate_topology("dragonfly:4,1,4,2,bandwidth=10GB/s,latency=2us"));
  EXPECT_NE(xml.find(R"(<cluster id="dragonfly:4,1,4,2" prefix="n" radical="0-31" suffix="" speed="1000000000f" )"
                     R"(core="1" bw="10000000000Bps" lat="2e-06s" sharing_policy="SPLITDUPLEX" topology="DRAGONFLY" )"
                     R"(topo_parameters="4,1;1,1;4,1;2"/>)"),
            std::string::npos)
      << xml;
  EXPECT_EQ(xml.find("<route"), std::string::npos);
}

// Several chassis a group: SimGrid 3.32's cluster would leave a chassis through chassis 0, so
// the routes are written out, each arriving.
TEST(SimgridPlatform, CascadeDragonflyOfSeveralChassisListsItsRoutes) {
  const auto p = parse(simgrid_platform(generate_topology("dragonfly:2,2,2,1")));
  ASSERT_EQ(p.hosts.size(), 8u);
  expect_all_routes_arrive(p, 8);
  // Up, to group 0's router 1, across to group 1's router 0, to its position 1, its chassis 1, down.
  EXPECT_EQ(walk(p, "n0", "n7").size(), 6u);
}

// A node's memory is a SHARED link and its route to itself.
TEST(SimgridPlatform, MemoryIsTheRouteFromAHostToItself) {
  const auto p = parse(simgrid_platform(generate_topology("star:2,cores=4,memory=20GB/s,memory_latency=50ns")));
  ASSERT_EQ(p.links.size(), 4u);
  EXPECT_EQ(p.links.at(3).policy, "SHARED");
  EXPECT_EQ(p.links.at(3).ends, (std::vector<std::string>{"n1", "n1"}));
  EXPECT_EQ(p.links.at(3).bandwidth, 20e9);
  ASSERT_EQ(p.routes.size(), 4u);
  ASSERT_EQ(p.routes.at({"n1", "n1"}).size(), 1u);
  EXPECT_EQ(p.routes.at({"n1", "n1"})[0].link, 3);
  EXPECT_EQ(p.routes.at({"n1", "n1"})[0].direction, "");
}
