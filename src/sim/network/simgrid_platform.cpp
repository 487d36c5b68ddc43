#include "sim/network/simgrid_platform.hpp"

#include <fmt/format.h>

#include "util/markup_escape.hpp"
#include "sim/network/routing.hpp"

namespace augur::sim {
namespace {

bool split_duplex(const Link& l) { return l.full_duplex && !l.shared && !is_memory(l); }

// `{}` prints the shortest text that reads back as the same double, so SimGrid gets augur's
// numbers exactly.
void write_link(std::string& out, const Machine& m, std::size_t i) {
  const auto& l = m.links[i];
  std::vector<std::string> ends;
  for (int v : l.ends) ends.push_back(vertex_name(m, v));
  out += fmt::format("    <link id=\"l{}\" bandwidth=\"{}Bps\" latency=\"{}s\" sharing_policy=\"{}\">\n", i, l.bandwidth,
                     l.latency + m.hop_latency, split_duplex(l) ? "SPLITDUPLEX" : "SHARED");
  out += fmt::format("      <prop id=\"connects\" value=\"{}\"/>\n    </link>\n", fmt::join(ends, " "));
}

// Router channels are 2·link for a link's first direction (or its only channel) and 2·link + 1
// for the other: SimGrid's UP and DOWN halves of a SPLITDUPLEX link.
void write_route(std::string& out, const Machine& m, const Router& router, int from, int to) {
  out += fmt::format("    <route src=\"n{}\" dst=\"n{}\" symmetrical=\"NO\">", from, to);
  for (auto channel : router.route(from, to).channels) {
    const auto link = channel / 2;
    if (split_duplex(m.links[link]))
      out += fmt::format("<link_ctn id=\"l{}\" direction=\"{}\"/>", link, channel % 2 == 0 ? "UP" : "DOWN");
    else
      out += fmt::format("<link_ctn id=\"l{}\"/>", link);
  }
  out += "</route>\n";
}

// SimGrid's DRAGONFLY cluster routes a Cascade dragonfly as augur does when it has one chassis a
// group: with several, SimGrid 3.32 leaves a group's other chassis through chassis 0's routers.
// Its links are alike and it has no memories (a cluster's loopback is not shared).
bool simgrid_dragonfly(const Machine& m) {
  if (m.routing != Routing::dragonfly || m.dims[2] != 1 || m.node_types.size() != 1) return false;
  for (const auto& l : m.links)
    if (is_memory(l) || l.bandwidth != m.links[0].bandwidth || l.latency != m.links[0].latency ||
        l.full_duplex != m.links[0].full_duplex)
      return false;
  return true;
}

// "G,1;1,1;R,1;N": groups, chassis and routers each with one link between two of them, nodes a router.
std::string dragonfly_cluster(const Machine& m, const PlatformOptions& options) {
  const auto& type = m.node_types[0];
  const auto& link = m.links[0];
  return fmt::format(
      "  <cluster id=\"{}\" prefix=\"n\" radical=\"0-{}\" suffix=\"\" speed=\"{}f\" core=\"{}\" bw=\"{}Bps\" "
      "lat=\"{}s\" sharing_policy=\"{}\" topology=\"DRAGONFLY\" topo_parameters=\"{},1;1,1;{},1;{}\"/>\n",
      util::markup_escaped(m.name), m.nodes() - 1, type.speed * options.reference_speed, type.cores, link.bandwidth,
      link.latency + m.hop_latency, link.full_duplex ? "SPLITDUPLEX" : "SHARED", m.dims[3], m.dims[1], m.dims[0]);
}

}  // namespace

std::string simgrid_platform(const Machine& machine, const PlatformOptions& options) {
  validate(machine);
  std::string out =
      "<?xml version='1.0'?>\n"
      "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n";
  if (simgrid_dragonfly(machine)) {
    out += fmt::format("<!-- {}: {} nodes in SimGrid's own dragonfly, whose routes are augur's "
                       "(docs/machine-format.md). -->\n",
                       util::markup_escaped(machine.name), machine.nodes());
    return out + "<platform version=\"4.1\">\n" + dragonfly_cluster(machine, options) + "</platform>\n";
  }
  const Router router(machine);
  out += fmt::format(
      "<!-- {}: {} nodes, {} links, routes as augur routes them (docs/machine-format.md). Switches are not\n"
      "     listed: every route names its links. -->\n",
      util::markup_escaped(machine.name), machine.nodes(), machine.links.size());
  out += "<platform version=\"4.1\">\n";
  out += fmt::format("  <zone id=\"{}\" routing=\"Full\">\n", util::markup_escaped(machine.name.empty() ? "machine" : machine.name));
  for (int n = 0; n < machine.nodes(); ++n) {
    const auto& type = machine.type_of_node(n);
    out += fmt::format("    <host id=\"n{}\" speed=\"{}f\" core=\"{}\"/>\n", n, type.speed * options.reference_speed,
                       type.cores);
  }
  for (std::size_t i = 0; i < machine.links.size(); ++i) write_link(out, machine, i);
  for (int from = 0; from < machine.nodes(); ++from)
    for (int to = 0; to < machine.nodes(); ++to)
      if (from != to || router.has_memory(from)) write_route(out, machine, router, from, to);
  out += "  </zone>\n</platform>\n";
  return out;
}

int core_count(const Machine& machine) {
  int cores = 0;
  for (int n = 0; n < machine.nodes(); ++n) cores += machine.type_of_node(n).cores;
  return cores;
}

std::string simgrid_hostfile(const Machine& machine, int ranks) {
  validate(machine);
  std::string out;
  for (int r = 0; r < ranks; ++r) out += fmt::format("n{}\n", machine.node_of(r));
  return out;
}

}  // namespace augur::sim
