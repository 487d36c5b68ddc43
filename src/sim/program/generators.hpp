#pragma once
// Programs made from a name and key=value parameters (`augur sim --generate bcast algorithm=1m
// p=12 bytes=16`): a collective run by every rank `iterations` times as the named algorithm's
// messages, or one of the seed's program structures (farm, pipeline, array). Ranks doing the same
// thing share one body, so p may be in the millions.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/program/algorithms.hpp"
#include "sim/program/program.hpp"

namespace augur::sim {

struct Generated {
  std::unique_ptr<FlatProgram> program;
  AlgorithmChoice algorithms;  // the algorithm each collective runs as
  std::string description;     // e.g. "bcast 1m, p = 12, 16 B"
};

// `args` are key=value: p (ranks), bytes, root, algorithm, iterations, compute (seconds between
// iterations) for a collective; describe_generators() lists the programs' keys. Throws
// std::invalid_argument naming the bad parameter.
Generated generate(std::string_view name, const std::vector<std::string>& args);

// What --generate accepts, one line each, for --help.
std::string describe_generators();

}  // namespace augur::sim
