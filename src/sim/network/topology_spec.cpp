// "NAME:positional,…,key=value,…": the command line's and the machine file's way to name a
// generated topology.
#include <charconv>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "util/duration.hpp"
#include "sim/network/topologies.hpp"

namespace augur::sim {
namespace {

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  while (true) {
    const auto at = text.find(sep);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return parts;
    text.remove_prefix(at + 1);
  }
}

int whole(std::string_view text, std::string_view what) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0)
    throw std::invalid_argument(fmt::format("topology: {} '{}' is not a whole number", what, text));
  return value;
}

double positive_number(std::string_view key, std::string_view text) {
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !(value > 0))
    throw std::invalid_argument(fmt::format("topology: {} '{}' is not a positive number", key, text));
  return value;
}

void set_option(LinkSpec& spec, std::string_view key, std::string_view value) {
  if (key == "latency") {
    auto s = util::parse_seconds(value);
    if (!s) throw std::invalid_argument(fmt::format("topology: latency '{}' is not a time such as 1.5us", value));
    spec.latency = *s;
  } else if (key == "bandwidth") {
    spec.bandwidth = parse_bandwidth(value);
  } else if (key == "duplex") {
    if (value != "full" && value != "half")
      throw std::invalid_argument(fmt::format("topology: duplex '{}' is neither full nor half", value));
    spec.full_duplex = value == "full";
  } else if (key == "cores") {
    spec.node.cores = whole(value, "cores");
  } else if (key == "speed") {
    spec.node.speed = positive_number(key, value);
  } else if (key == "memory") {
    spec.memory_bandwidth = parse_bandwidth(value);
  } else if (key == "memory_latency") {
    auto s = util::parse_seconds(value);
    if (!s) throw std::invalid_argument(fmt::format("topology: memory_latency '{}' is not a time such as 50ns", value));
    spec.memory_latency = *s;
  } else {
    throw std::invalid_argument(fmt::format(
        "topology: unknown option '{}' (latency, bandwidth, duplex, cores, speed, memory, memory_latency)", key));
  }
}

std::vector<int> sides(std::string_view text) {
  std::vector<int> dims;
  for (auto part : split(text, 'x')) dims.push_back(whole(part, "side"));
  return dims;
}

// At least 1, or the error names the field and why.
int at_least_one(std::string_view name, std::string_view text, std::string_view field) {
  const int value = whole(text, field);
  if (value < 1) throw std::invalid_argument(fmt::format("topology: {}: {} must be at least 1, not {}", name, field, value));
  return value;
}

// A,P,H (Kim's balanced dragonfly) or G,C,R,N (Cray Cascade, SimGrid's DRAGONFLY).
Machine dragonfly_of(const std::vector<std::string_view>& args, const LinkSpec& spec) {
  if (args.size() == 3)
    return dragonfly(at_least_one("dragonfly", args[0], "a (routers a group)"),
                     at_least_one("dragonfly", args[1], "p (nodes a router)"),
                     at_least_one("dragonfly", args[2], "h (global links a router)"), spec);
  if (args.size() != 4)
    throw std::invalid_argument(fmt::format(
        "topology: dragonfly takes A,P,H (routers a group, nodes a router, global links a router) or G,C,R,N "
        "(groups, chassis a group, routers a chassis, nodes a router), found {} parameter(s)", args.size()));
  Cascade shape{at_least_one("dragonfly", args[0], "groups"), at_least_one("dragonfly", args[1], "chassis"),
                at_least_one("dragonfly", args[2], "routers"), at_least_one("dragonfly", args[3], "nodes")};
  // Group j's global link leaves group i from its j-th router: every group needs one router per other group.
  if (shape.groups > static_cast<long long>(shape.chassis) * shape.routers)
    throw std::invalid_argument(fmt::format(
        "topology: dragonfly: groups {} exceeds the routers of a group ({} chassis × {} routers), one per global link",
        shape.groups, shape.chassis, shape.routers));
  return dragonfly(shape, spec);
}

// A link from each node to itself: the node's memory (machine.hpp), one channel for all its ranks.
void add_memories(Machine& m, const LinkSpec& spec) {
  if (spec.memory_bandwidth <= 0) return;
  for (int v = 0; v < m.nodes(); ++v)
    m.links.push_back({.ends = {v, v}, .latency = spec.memory_latency, .bandwidth = spec.memory_bandwidth,
                       .full_duplex = false, .shared = false});
}

Machine build(std::string_view name, const std::vector<std::string_view>& args, const LinkSpec& spec) {
  auto count = [&](std::size_t n) {
    if (args.size() != n)
      throw std::invalid_argument(fmt::format("topology: {} takes {} parameter(s), found {}", name, n, args.size()));
  };
  if (name == "mesh" || name == "torus") return count(1), mesh(sides(args[0]), name == "torus", spec);
  if (name == "fattree") return count(2), fat_tree(whole(args[0], "k"), whole(args[1], "n"), spec);
  if (name == "dragonfly") return dragonfly_of(args, spec);
  count(1);
  const int n = whole(args[0], "size");
  if (name == "ring") return ring(n, spec);
  if (name == "hypercube") return hypercube(n, spec);
  if (name == "star") return star(n, spec);
  if (name == "bus") return bus(n, spec);
  throw std::invalid_argument(fmt::format("topology: unknown generator '{}' (see `augur machines`)", name));
}

}  // namespace

Machine generate_topology(std::string_view text) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos)
    throw std::invalid_argument(fmt::format("topology '{}': expected NAME:parameters such as torus:8x8", text));
  LinkSpec spec;
  std::vector<std::string_view> args;
  for (auto part : split(text.substr(colon + 1), ',')) {
    const auto eq = part.find('=');
    if (eq == std::string_view::npos) args.push_back(part);
    else set_option(spec, part.substr(0, eq), part.substr(eq + 1));
  }
  auto m = build(text.substr(0, colon), args, spec);
  add_memories(m, spec);
  validate(m);
  return m;
}

}  // namespace augur::sim
