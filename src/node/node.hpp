#pragma once
// The compute section of a model from this node's kernels (node/kernels.hpp): how long each may
// take, and running them all.
#include <cstddef>

#include <nlohmann/json.hpp>

#include "model/model.hpp"
#include "node/timing.hpp"

namespace augur::node {

struct NodeSettings {
  Timing kernel;                // the step, the flop rate and the triad
  Timing sweep_point;           // each working set of the cache sweep
  std::size_t triad_array_bytes = 0;  // each of the triad's three arrays
  std::size_t sweep_smallest = 4 << 10;
  std::size_t sweep_largest = 64 << 20;
  std::size_t line_bytes = 64;
};

// About 1 s of kernels when quick, 3 s otherwise; the triad's arrays are twice the last-level
// cache (at least 32 MiB, at most 1 GiB each, 128 MiB when quick) so that almost nothing of them stays cached.
NodeSettings node_settings(bool quick);

nlohmann::json to_json(const NodeSettings& settings);

// Runs every kernel; relative_speed is left at 1.
model::Compute measure_node(const NodeSettings& settings);

}  // namespace augur::node
