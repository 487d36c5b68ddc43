#pragma once
// How a reverse-profiled run is set up: read once from the environment that `augur run`
// prepares (docs/revprof.md lists the variables), so the shim needs no command line.
#include <string>

#include "model/regime.hpp"

namespace augur::revprof {

enum class ComputeMode { measured, annotated, zero };

struct Config {
  std::string model;            // AUGUR_MODEL: built-in name or model file (default generic)
  model::Bound bound = model::Bound::avg;  // AUGUR_BOUND: min|avg|max
  ComputeMode compute = ComputeMode::measured;  // AUGUR_COMPUTE
  double compute_scale = 1.0;   // AUGUR_COMPUTE_SCALE: target time per host CPU second
  std::string trace_dir;        // AUGUR_TRACE: empty = no trace
  bool virtual_wtime = true;    // AUGUR_WTIME: virtual|real
  std::string report_path;      // AUGUR_REPORT: JSON report file; empty = text on stderr
  bool measure = false;         // AUGUR_MEASURE=1: record the real times instead of predicting
  double ack_wait_limit = 0.005;  // AUGUR_ACK_WAIT: real seconds a sender waits for a receiver's post time
  // Which node each rank is on, for a machine of nodes (docs/nodes.md): AUGUR_RANKS_PER_NODE
  // (default 1) and AUGUR_PLACEMENT, block (default), cyclic or a rank-to-node file.
  int ranks_per_node = 1;
  std::string placement = "block";
};

// Throws std::invalid_argument naming the variable and the accepted values.
Config config_from_environment();

}  // namespace augur::revprof
