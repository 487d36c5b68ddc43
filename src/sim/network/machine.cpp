#include "sim/network/machine.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace augur::sim {

// Block mapping fills each node's cores in node order; more ranks than cores start again at node 0.
int Machine::node_of(int rank) const {
  if (mapping == Mapping::round_robin) return rank % nodes();
  if (mapping == Mapping::file) {
    if (rank >= static_cast<int>(rank_nodes.size()))
      throw std::invalid_argument(fmt::format("mapping: rank {} is not in the mapping ({} ranks)", rank, rank_nodes.size()));
    return rank_nodes[rank];
  }
  int total = 0;
  for (int n = 0; n < nodes(); ++n) total += type_of_node(n).cores;
  int r = rank % total;
  for (int n = 0; n < nodes(); ++n) {
    if (r < type_of_node(n).cores) return n;
    r -= type_of_node(n).cores;
  }
  return 0;  // unreachable: r < total
}

std::string vertex_name(const Machine& m, int v) {
  return v < m.nodes() ? fmt::format("n{}", v) : fmt::format("s{}", v - m.nodes());
}

namespace {

[[noreturn]] void fail(const std::string& field, const std::string& reason) {
  throw std::invalid_argument(field + ": " + reason);
}

void validate_link(const Machine& m, std::size_t i) {
  const auto& l = m.links[i];
  const auto field = fmt::format("links[{}]", i);
  if (l.ends.size() < 2) fail(field + ".connect", "a link joins at least two vertices");
  if (l.ends.size() > 2 && !l.shared) fail(field + ".connect", "more than two ends needs \"shared\": true (a bus)");
  for (int v : l.ends)
    if (v < 0 || v >= m.vertices()) fail(field + ".connect", fmt::format("vertex {} does not exist ({} vertices)", v, m.vertices()));
  if (l.ends.size() == 2 && l.ends[0] == l.ends[1] && l.ends[0] >= m.nodes())
    fail(field + ".connect", "only a compute node's memory joins a vertex to itself, and this is a switch");
  if (!(l.bandwidth > 0)) fail(field + ".bandwidth", "must be positive");
  if (!(l.latency >= 0)) fail(field + ".latency", "must not be negative");
}

void validate_routing(const Machine& m) {
  if (m.routing == Routing::dimension_order) {
    long long product = 1;
    for (int d : m.dims) product *= d;
    if (m.dims.empty() || product != m.nodes())
      fail("routing", "dimension order needs dims whose product is the number of nodes");
  }
  if (m.routing == Routing::up_down && static_cast<int>(m.level.size()) != m.vertices())
    fail("routing", "up/down needs a level for every vertex");
  if (m.routing == Routing::dragonfly &&
      (m.dims.size() != 4 || static_cast<long long>(m.dims[0]) * m.dims[1] * m.dims[2] * m.dims[3] != m.nodes() ||
       static_cast<long long>(m.dims[1]) * m.dims[2] * m.dims[3] != m.switches))
    fail("routing", "dragonfly needs dims (nodes a router, routers a chassis, chassis a group, groups) that make "
                    "its nodes and routers");
}

void validate_memories(const Machine& m) {
  std::vector<bool> seen(m.nodes());
  for (std::size_t i = 0; i < m.links.size(); ++i)
    if (is_memory(m.links[i])) {
      if (seen[m.links[i].ends[0]])
        fail(fmt::format("links[{}].connect", i), fmt::format("{} has a memory already", vertex_name(m, m.links[i].ends[0])));
      seen[m.links[i].ends[0]] = true;
    }
}

}  // namespace

void validate(const Machine& m) {
  if (m.nodes() == 0) fail("nodes", "a machine needs at least one compute node");
  for (std::size_t t = 0; t < m.node_types.size(); ++t) {
    if (m.node_types[t].cores < 1) fail(fmt::format("node_types[{}].cores", t), "must be at least 1");
    if (!(m.node_types[t].speed > 0)) fail(fmt::format("node_types[{}].speed", t), "must be positive");
  }
  for (int t : m.node_type)
    if (t < 0 || t >= static_cast<int>(m.node_types.size())) fail("nodes", fmt::format("node type {} does not exist", t));
  for (std::size_t i = 0; i < m.links.size(); ++i) validate_link(m, i);
  validate_memories(m);
  if (!(m.hop_latency >= 0)) fail("hop_latency", "must not be negative");
  validate_routing(m);
  for (std::size_t r = 0; r < m.rank_nodes.size(); ++r)
    if (m.rank_nodes[r] < 0 || m.rank_nodes[r] >= m.nodes())
      fail(fmt::format("mapping[{}]", r), fmt::format("node {} does not exist ({} nodes)", m.rank_nodes[r], m.nodes()));
}

}  // namespace augur::sim
