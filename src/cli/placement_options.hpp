#pragma once
// The options that say which node each rank runs on, shared by every command that prices a
// message (docs/nodes.md, "Placement"): --ranks-per-node K and --placement block|cyclic|FILE.
#include <string>

#include <CLI/CLI.hpp>

#include "timing/placement.hpp"

namespace augur::cli {

struct PlacementRequest {
  int ranks_per_node = 1;
  std::string placement = "block";  // block, cyclic, or a rank-to-node file
};

void add_placement_options(CLI::App& cmd, PlacementRequest& request);

// The placement asked for, over `ranks` ranks (cyclic deals them round ⌈ranks / K⌉ nodes).
// Throws UsageError for a bad option or file, naming it.
timing::Placement make_placement(const PlacementRequest& request, int ranks);

}  // namespace augur::cli
