#pragma once
// A machine as processors joined by links (docs/machine-format.md): what `--network topology`
// routes messages over. The graph's vertices are compute nodes (0 … nodes − 1) followed by
// switches; a link joins two vertices, or several when it is a shared medium such as a bus.
#include <string>
#include <vector>

namespace augur::sim {

struct NodeType {
  std::string name = "node";
  int cores = 1;       // ranks it holds under block mapping
  double speed = 1.0;  // compute speed relative to the model's compute step (2: twice as fast)
};

// A link whose two ends are one compute node is that node's memory: messages between ranks of the
// node cross it (one channel, shared by all of them) instead of the network.
struct Link {
  std::vector<int> ends;  // vertices; more than two only when shared
  double latency = 0;     // seconds
  double bandwidth = 0;   // bytes per second
  bool full_duplex = true;  // each direction has the whole bandwidth; else both share it
  bool shared = false;      // one medium for every transfer on it (a bus)
};

inline bool is_memory(const Link& l) { return l.ends.size() == 2 && l.ends[0] == l.ends[1]; }

enum class Routing { shortest, dimension_order, up_down, dragonfly };
enum class Mapping { block, round_robin, file };

struct Machine {
  std::string name;
  std::vector<NodeType> node_types;
  std::vector<int> node_type;  // per compute node: index into node_types
  int switches = 0;
  std::vector<Link> links;
  Routing routing = Routing::shortest;
  // dimension order: the mesh's or torus's sides, fastest first; dragonfly: nodes a router,
  // routers a chassis, chassis a group, groups (switches are the routers, group by group)
  std::vector<int> dims;
  bool wraps = false;      // dimension order: a torus
  std::vector<int> level;  // up/down: each vertex's height (compute nodes 0)
  double hop_latency = 0;  // seconds added per link crossed, on top of the links' latencies
  Mapping mapping = Mapping::block;
  std::vector<int> rank_nodes;  // Mapping::file: the node of each rank

  int nodes() const { return static_cast<int>(node_type.size()); }
  int vertices() const { return nodes() + switches; }
  // The compute node that runs `rank` of `ranks`.
  int node_of(int rank) const;
  const NodeType& type_of_node(int node) const { return node_types[node_type[node]]; }
};

// "n3" for compute node 3, "s0" for the first switch: the names machine files use.
std::string vertex_name(const Machine& machine, int vertex);

// Checks what every machine must satisfy (ends in range, positive bandwidths, a mapping that
// fits); throws std::invalid_argument naming the field and the reason.
void validate(const Machine& machine);

}  // namespace augur::sim
