#pragma once
// Which level of a machine of nodes a raw record measures (docs/nodes.md): one rank a node (the
// model's own operations, between nodes), two ranks of one node (the on-node level), or a
// collective with several ranks a node (one of the model's placements). Records of one machine
// state that only the placement tells apart (a ping-pong of 8 bytes on one node and between two)
// must never be pooled, so the fitter splits them before anything else.
#include <map>
#include <vector>

#include "fit/raw.hpp"

namespace augur::fit {

inline constexpr int kOnNodeLevel = 0;  // the key of two ranks of one node; 1 is one rank a node

// kOnNodeLevel, 1, or the record's ranks a node (>= 2).
int level_of(const Measurement& m);

// Whether any record ran across nodes: a run on one node is a one-level machine whatever its
// records say of their placement.
bool measured_across_nodes(const std::vector<Measurement>& points);

// The records by level_of, all under 1 when none ran across nodes.
std::map<int, std::vector<Measurement>> split_by_level(const std::vector<Measurement>& points);

// The node's size: the header's settings.ranks_per_node when larger, else the most ranks a node
// of any record (at least 2, the on-node level's pair).
int node_size(const std::vector<Measurement>& points, int header_ranks_per_node);

}  // namespace augur::fit
