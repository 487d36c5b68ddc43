#include "sim/network/composition.hpp"

#include <charconv>
#include <stdexcept>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace augur::sim {
namespace {

// The whole number `text` spells, or −1.
int index_of(std::string_view text) {
  int value = -1;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size() && !text.empty() ? value : -1;
}

}  // namespace

int Composition::part_vertex(std::string_view name) const {
  const auto dot = name.find('.');
  const int part = dot == std::string_view::npos ? -1 : index_of(name.substr(1, dot - 1));
  const auto vertex = dot == std::string_view::npos ? std::string_view{} : name.substr(dot + 1);
  if (!name.starts_with("p") || part < 0 || vertex.size() < 2 || (vertex[0] != 'n' && vertex[0] != 's'))
    throw std::invalid_argument(fmt::format("'{}' is not a part's vertex such as p0.n3 or p1.s0", name));
  if (part >= static_cast<int>(nodes.size()))
    throw std::invalid_argument(fmt::format("'{}': there is no part {} (parts p0 … p{})", name, part, nodes.size() - 1));
  const bool node = vertex[0] == 'n';
  const int index = index_of(vertex.substr(1)), count = node ? nodes[part] : switches[part];
  if (index < 0 || index >= count)
    throw std::invalid_argument(
        fmt::format("'{}': part {} has {} {}", name, part, count, node ? "nodes" : "switches"));
  return (node ? node_offset[part] : switch_offset[part]) + index;
}

Composition compose(const std::vector<Machine>& parts, int own_switches) {
  Composition c;
  auto& m = c.machine;
  int nodes = 0, switches = 0;
  for (const auto& p : parts) nodes += p.nodes(), switches += p.switches;
  m.switches = own_switches + switches;
  int node = 0, sw = nodes + own_switches;
  std::vector<std::string> names;
  for (const auto& p : parts) {
    c.node_offset.push_back(node);
    c.switch_offset.push_back(sw);
    c.nodes.push_back(p.nodes());
    c.switches.push_back(p.switches);
    names.push_back(p.name);
    const int types = static_cast<int>(m.node_types.size());
    m.node_types.insert(m.node_types.end(), p.node_types.begin(), p.node_types.end());
    for (int t : p.node_type) m.node_type.push_back(types + t);
    for (auto l : p.links) {
      for (int& v : l.ends) v = v < p.nodes() ? node + v : sw + v - p.nodes();
      m.links.push_back(std::move(l));
    }
    node += p.nodes();
    sw += p.switches;
  }
  m.name = fmt::format("{}", fmt::join(names, " + "));
  m.routing = Routing::shortest;
  return c;
}

}  // namespace augur::sim
