#include "cli/placement_options.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "cli/commands.hpp"

namespace augur::cli {

void add_placement_options(CLI::App& cmd, PlacementRequest& request) {
  cmd.add_option("--ranks-per-node", request.ranks_per_node,
                 "ranks on each node of a machine of nodes (docs/nodes.md); 1: one rank a node")
      ->capture_default_str();
  cmd.add_option("--placement", request.placement,
                 "how ranks fill the nodes: block (ranks 0..K-1 on the first node), cyclic (rank r on node r mod N), "
                 "or a rank-to-node file of `RANK NODE` lines")
      ->capture_default_str();
}

timing::Placement make_placement(const PlacementRequest& r, int ranks) {
  if (r.ranks_per_node < 1) throw UsageError("--ranks-per-node must be at least 1");
  try {
    if (r.placement == "block") return timing::Placement::block(r.ranks_per_node);
    if (r.placement == "cyclic") return timing::Placement::cyclic(r.ranks_per_node, ranks);
    std::ifstream in(r.placement);
    if (!in) throw UsageError("--placement: '" + r.placement + "' is not block, cyclic or a readable rank-to-node file");
    std::stringstream text;
    text << in.rdbuf();
    auto placement = timing::parse_placement_table(text.str(), r.placement);
    if (ranks > 0) placement.node_of(ranks - 1);  // every rank has a node, or the error names the first without
    return placement;
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--placement: ") + e.what());
  }
}

}  // namespace augur::cli
