#pragma once
// Generators for the common topologies, at any size, each with its natural routing: dimension
// order on rings, meshes and tori, shortest paths on hypercubes, stars and buses, up/down on fat
// trees. `generate_topology("torus:8x8,latency=1us,bandwidth=10GB/s")` is what `--topology NAME:params`
// and a machine file's "topology" field call.
#include <string>
#include <string_view>
#include <vector>

#include "sim/network/machine.hpp"

namespace augur::sim {

// What every link of a generated machine is like, and what its nodes are like.
struct LinkSpec {
  double latency = 1e-6;     // seconds
  double bandwidth = 1e9;    // bytes per second
  bool full_duplex = true;
  NodeType node;
  // Each node's memory (machine.hpp): 0 leaves messages between ranks of a node off the links.
  double memory_bandwidth = 0;
  double memory_latency = 0;
};

Machine ring(int n, const LinkSpec& spec);
Machine mesh(const std::vector<int>& dims, bool torus, const LinkSpec& spec);
Machine hypercube(int dimension, const LinkSpec& spec);
// The k-ary n-tree: k^n nodes, n levels of k^(n−1) switches with k links up and k down.
Machine fat_tree(int k, int levels, const LinkSpec& spec);
// Groups of `routers` routers, all joined to each other, with `per_router` nodes each and
// `global` links from each router to other groups: routers·global + 1 groups, one link between
// every two of them (the balanced dragonfly of Kim et al.).
Machine dragonfly(int routers, int per_router, int global, const LinkSpec& spec);
// The Cray Cascade layout, as SimGrid's DRAGONFLY cluster builds it: `groups` groups of `chassis`
// chassis of `routers` routers with `per_router` nodes each. The routers of a chassis are joined
// all to all, so are the routers of one position in a group's chassis, and every two groups by
// one global link, from group i's router j (its j-th, counting chassis by chassis) to group j's
// router i. Minimal routing: in each group to the router of the global link, its position first,
// then its chassis; across; then likewise to the destination's router.
struct Cascade {
  int groups = 1, chassis = 1, routers = 1, per_router = 1;
};
Machine dragonfly(const Cascade& shape, const LinkSpec& spec);
Machine star(int n, const LinkSpec& spec);  // a crossbar: every node on its own port of one switch
Machine bus(int n, const LinkSpec& spec);   // one shared medium

struct GeneratorInfo {
  std::string_view name, params, example, routing, description;
};
const std::vector<GeneratorInfo>& generators();

// "NAME:positional,…,key=value,…" with keys latency, bandwidth, duplex (full|half), cores and
// speed. Throws std::invalid_argument naming the part that is wrong.
Machine generate_topology(std::string_view spec);

// "10GB/s", "1.5e9", "100 MiB/s", "1Gbit/s": bytes per second; throws std::invalid_argument.
double parse_bandwidth(std::string_view text);

}  // namespace augur::sim
