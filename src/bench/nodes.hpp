#pragma once
// Which of the run's ranks share a node: the groups of MPI_Comm_split_type(MPI_COMM_TYPE_SHARED),
// numbered in the order of their lowest world rank, so world rank 0 is on node 0. The sweep
// measures pairs and collectives at placements over them (plan.hpp, "placements").
#include <string>
#include <vector>

#include "bench/plan.hpp"

namespace augur::bench {

struct NodeMap {
  Nodes machine;                   // nodes, and the fewest ranks any of them holds
  int most_ranks_per_node = 0;     // the most ranks any node holds
  int node = 0;                    // this rank's node
  int local = 0;                   // this rank's place among its node's ranks, in world rank order
  std::vector<std::string> hosts;  // each node's processor name (MPI_Get_processor_name), on every rank
  std::vector<int> first_ranks;    // each node's lowest world rank

  // The nodes' ranks are consecutive world ranks, node after node, as many on each.
  bool block = true;
};

// Collective over MPI_COMM_WORLD.
NodeMap find_nodes();

// "2 nodes (a, b), 2 ranks a node" or "one node (a)", for the person running the bench.
std::string describe(const NodeMap& map);

}  // namespace augur::bench
