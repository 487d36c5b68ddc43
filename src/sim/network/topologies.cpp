#include "sim/network/topologies.hpp"

#include <charconv>
#include <utility>
#include <stdexcept>

#include <fmt/format.h>

#include "util/duration.hpp"
#include "util/size.hpp"

namespace augur::sim {
namespace {

Machine with_nodes(std::string name, int n, const LinkSpec& spec) {
  Machine m;
  m.name = std::move(name);
  m.node_types = {spec.node};
  m.node_type.assign(n, 0);
  return m;
}

void add_link(Machine& m, const LinkSpec& spec, std::vector<int> ends) {
  Link l;
  l.ends = std::move(ends);
  l.latency = spec.latency;
  l.bandwidth = spec.bandwidth;
  l.full_duplex = spec.full_duplex;
  l.shared = l.ends.size() > 2;
  m.links.push_back(std::move(l));
}

// Past a million vertices the graph alone would take gigabytes.
constexpr long long kMostVertices = 1 << 20;

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}

// k^e without overflow past what a machine could hold.
int power(int k, int e) {
  long long p = 1;
  for (int i = 0; i < e; ++i) {
    p *= k;
    require(p <= kMostVertices, "topology: more than 1,048,576 vertices");
  }
  return static_cast<int>(p);
}

}  // namespace

// A mesh's link along dimension d joins a node to its +1 neighbour; a torus adds the wrap-around
// link, except on a side of 2 where it would duplicate the one link there.
Machine mesh(const std::vector<int>& dims, bool torus, const LinkSpec& spec) {
  long long n = 1;
  for (int d : dims) {
    require(d >= 1, "mesh: every side must be at least 1");
    n *= d;
    require(n <= kMostVertices, "mesh: more than 1,048,576 nodes");
  }
  auto m = with_nodes(fmt::format("{}:{}", torus ? "torus" : "mesh", fmt::join(dims, "x")), static_cast<int>(n), spec);
  int stride = 1;
  for (int side : dims) {
    for (int v = 0; v < m.nodes(); ++v) {
      const int x = (v / stride) % side;
      if (x + 1 < side) add_link(m, spec, {v, v + stride});
      else if (torus && side > 2) add_link(m, spec, {v, v - x * stride});
    }
    stride *= side;
  }
  m.routing = Routing::dimension_order;
  m.dims = dims;
  m.wraps = torus;
  return m;
}

Machine ring(int n, const LinkSpec& spec) {
  require(n >= 1, "ring: needs at least 1 node");
  auto m = mesh({n}, true, spec);
  m.name = fmt::format("ring:{}", n);
  return m;
}

Machine hypercube(int dimension, const LinkSpec& spec) {
  require(dimension >= 0, "hypercube: the dimension must not be negative");
  auto m = with_nodes(fmt::format("hypercube:{}", dimension), power(2, dimension), spec);
  for (int bit = 0; bit < dimension; ++bit)
    for (int v = 0; v < m.nodes(); ++v)
      if (!(v & (1 << bit))) add_link(m, spec, {v, v | (1 << bit)});
  return m;
}

// Switch w of level l (1 … n) is vertex nodes + (l − 1)·k^(n−1) + w. Node p hangs from level-1
// switch p / k; switch w of level l reaches up to the k switches of level l + 1 whose index
// differs from w at most in base-k digit l − 1. Two nodes that agree on digits L … n − 1 meet
// at level L, 2·L links apart.
Machine fat_tree(int k, int levels, const LinkSpec& spec) {
  require(k >= 1 && levels >= 1 && levels <= 20, "fattree: needs k >= 1 and 1 <= n <= 20");
  const int width = power(k, levels - 1);
  require(static_cast<long long>(width) * (levels + k) <= kMostVertices, "fattree: more than 1,048,576 vertices");
  auto m = with_nodes(fmt::format("fattree:{},{}", k, levels), width * k, spec);
  m.switches = width * levels;
  auto sw = [&](int level, int w) { return m.nodes() + (level - 1) * width + w; };
  for (int p = 0; p < m.nodes(); ++p) add_link(m, spec, {p, sw(1, p / k)});
  for (int level = 1; level < levels; ++level) {
    const int digit = power(k, level - 1);
    for (int w = 0; w < width; ++w)
      for (int j = 0; j < k; ++j) add_link(m, spec, {sw(level, w), sw(level + 1, w - (w / digit % k) * digit + j * digit)});
  }
  m.routing = Routing::up_down;
  m.level.assign(m.nodes(), 0);
  for (int level = 1; level <= levels; ++level) m.level.insert(m.level.end(), width, level);
  return m;
}

// Group i's global port c (router c / global) leads to group (i + c + 1) mod groups, whose port
// for group i is (i − j − 1) mod groups: each pair of groups gets one link, laid from the lower.
Machine dragonfly(int routers, int per_router, int global, const LinkSpec& spec) {
  require(routers >= 1 && per_router >= 1 && global >= 1, "dragonfly: needs a, p, h >= 1");
  const long long groups = static_cast<long long>(routers) * global + 1;
  require(groups * routers * (per_router + 1) <= kMostVertices, "dragonfly: more than 1,048,576 vertices");
  const int g = static_cast<int>(groups);
  auto m = with_nodes(fmt::format("dragonfly:{},{},{}", routers, per_router, global), g * routers * per_router, spec);
  m.switches = g * routers;
  auto router = [&](int group, int r) { return m.nodes() + group * routers + r; };
  for (int v = 0; v < m.nodes(); ++v) add_link(m, spec, {v, m.nodes() + v / per_router});
  for (int i = 0; i < g; ++i)
    for (int a = 0; a < routers; ++a)
      for (int b = a + 1; b < routers; ++b) add_link(m, spec, {router(i, a), router(i, b)});
  for (int i = 0; i < g; ++i)
    for (int c = 0; c < g - 1; ++c) {
      const int j = (i + c + 1) % g;
      if (i < j) add_link(m, spec, {router(i, c / global), router(j, ((i - j - 1) % g + g) % g / global)});
    }
  return m;
}

// Routers are numbered group by group, chassis by chassis: (g, c, b) is g·C·R + c·R + b.
Machine dragonfly(const Cascade& d, const LinkSpec& spec) {
  const long long routers = static_cast<long long>(d.groups) * d.chassis * d.routers;
  require(routers * (d.per_router + 1) <= kMostVertices, "topology: dragonfly: more than 1,048,576 vertices");
  const int per_group = d.chassis * d.routers;
  auto m = with_nodes(fmt::format("dragonfly:{},{},{},{}", d.groups, d.chassis, d.routers, d.per_router),
                      static_cast<int>(routers) * d.per_router, spec);
  m.switches = static_cast<int>(routers);
  auto router = [&](int g, int c, int b) { return m.nodes() + g * per_group + c * d.routers + b; };
  for (int v = 0; v < m.nodes(); ++v) add_link(m, spec, {v, m.nodes() + v / d.per_router});
  for (int g = 0; g < d.groups; ++g)
    for (int c = 0; c < d.chassis; ++c)
      for (int a = 0; a < d.routers; ++a)
        for (int b = a + 1; b < d.routers; ++b) add_link(m, spec, {router(g, c, a), router(g, c, b)});
  for (int g = 0; g < d.groups; ++g)
    for (int c = 0; c < d.chassis; ++c)
      for (int e = c + 1; e < d.chassis; ++e)
        for (int b = 0; b < d.routers; ++b) add_link(m, spec, {router(g, c, b), router(g, e, b)});
  for (int i = 0; i < d.groups; ++i)
    for (int j = i + 1; j < d.groups; ++j) add_link(m, spec, {router(i, 0, 0) + j, router(j, 0, 0) + i});
  m.routing = Routing::dragonfly;
  m.dims = {d.per_router, d.routers, d.chassis, d.groups};
  return m;
}

Machine star(int n, const LinkSpec& spec) {
  require(n >= 1, "star: needs at least 1 node");
  auto m = with_nodes(fmt::format("star:{}", n), n, spec);
  m.switches = 1;
  for (int v = 0; v < n; ++v) add_link(m, spec, {v, n});
  return m;
}

Machine bus(int n, const LinkSpec& spec) {
  require(n >= 1, "bus: needs at least 1 node");
  auto m = with_nodes(fmt::format("bus:{}", n), n, spec);
  if (n < 2) return m;
  std::vector<int> ends(n);
  for (int v = 0; v < n; ++v) ends[v] = v;
  add_link(m, spec, std::move(ends));
  m.links.back().shared = true;
  m.links.back().full_duplex = false;
  return m;
}

const std::vector<GeneratorInfo>& generators() {
  static const std::vector<GeneratorInfo> list{
      {"ring", "N", "ring:16", "dimension order (the shorter way round)", "N nodes in a cycle"},
      {"mesh", "AxB[xC…]", "mesh:8x8", "dimension order", "a grid, no wrap-around"},
      {"torus", "AxB[xC…]", "torus:8x8x8", "dimension order (the shorter way round)", "a grid with wrap-around"},
      {"hypercube", "D", "hypercube:6", "shortest path", "2^D nodes, neighbours differ in one bit"},
      {"fattree", "K,N", "fattree:4,3", "up/down, up ports chosen by destination",
       "the K-ary N-tree: K^N nodes, N levels of K^(N-1) switches"},
      {"dragonfly", "A,P,H", "dragonfly:4,2,2", "shortest path (local, global, local)",
       "A·H + 1 groups of A routers joined all to all, P nodes a router, H global links a router"},
      {"dragonfly", "G,C,R,N", "dragonfly:8,2,8,4", "minimal (local, global, local), as SimGrid's",
       "Cray Cascade: G groups of C chassis of R routers, N nodes a router (SimGrid's DRAGONFLY)"},
      {"star", "N", "star:32", "shortest path (through the switch)", "a crossbar: N nodes on one switch"},
      {"bus", "N", "bus:8,duplex=half", "the bus", "N nodes on one shared medium"},
  };
  return list;
}

double parse_bandwidth(std::string_view text) {
  if (text.ends_with("/s")) text.remove_suffix(2);
  // Networks are sold in bits per second: "1Gbit/s" is 125 MB/s.
  double scale = 1;
  if (text.ends_with("bit")) {
    text.remove_suffix(3);
    scale = 1.0 / 8;
    for (const auto& [prefix, factor] : {std::pair{'k', 1e3}, {'K', 1e3}, {'M', 1e6}, {'G', 1e9}, {'T', 1e12}})
      if (text.ends_with(prefix)) {
        text.remove_suffix(1);
        scale = factor / 8;
      }
  }
  const double bytes = util::parse_size(text, 8) * scale;
  if (!(bytes > 0)) throw std::invalid_argument(fmt::format("bandwidth '{}' must be positive", text));
  return bytes;
}

}  // namespace augur::sim
