#pragma once
// Which node each rank runs on (docs/nodes.md, "Placement"): the one fact a machine of nodes
// needs to price a message by its two ranks' level and a collective by its nodes × ranks a
// node. Pure: no MPI, no files (the rank-to-node table is parsed from its text).
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace augur::timing {

// How a communicator's ranks lie on nodes: how many nodes hold at least one of them, and the
// most of them any one node holds.
struct NodesAndRanks {
  int nodes = 1;
  int ranks_per_node = 1;
  friend bool operator==(const NodesAndRanks&, const NodesAndRanks&) = default;
};

class Placement {
 public:
  Placement() = default;  // one rank a node
  // Ranks 0…K−1 on node 0, K…2K−1 on node 1, …: what mpirun's --map-by slot and srun's block
  // distribution do.
  static Placement block(int ranks_per_node);
  // Ranks dealt round the nodes: rank r on node r mod N, N = ⌈ranks / K⌉ (--map-by node).
  static Placement cyclic(int ranks_per_node, int ranks);
  // Rank r on node_of_rank[r]; ranks beyond the table are an error when asked.
  static Placement table(std::vector<int> node_of_rank);

  int node_of(int rank) const;
  bool same_node(int a, int b) const { return one_a_node() ? a == b : node_of(a) == node_of(b); }
  bool one_a_node() const { return kind_ == Kind::block && per_node_ == 1; }
  NodesAndRanks shape(std::span<const int> ranks) const;
  NodesAndRanks shape_of_first(int p) const;  // ranks 0…p−1, a communicator of the first p ranks
  // "one rank a node", "block, 128 ranks a node", "cyclic over 4 nodes", "a table of 64 ranks on 2 nodes".
  std::string describe() const;

 private:
  enum class Kind { block, cyclic, table };
  Kind kind_ = Kind::block;
  int per_node_ = 1;
  int nodes_ = 1;  // cyclic: the nodes ranks are dealt round
  std::vector<int> table_;
};

// A rank-to-node file's text: a line `RANK NODE` (or `RANK: NODE`, as `srun -l hostname` prints)
// for every rank 0…N−1 once, NODE any name; `#` starts a comment. Throws std::invalid_argument
// "SOURCE:LINE: reason".
Placement parse_placement_table(std::string_view text, const std::string& source);

}  // namespace augur::timing
