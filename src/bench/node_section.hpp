#pragma once
// The node kernels in the characterisation run: rank 0 times them while the other ranks sleep,
// and the results go into the raw file's header as the model's compute section.
#include <nlohmann/json.hpp>

namespace augur::bench {

// Collective over MPI_COMM_WORLD. On rank 0 adds `compute` to the header and records how it was
// measured under provenance.settings.node_kernels. `quick` shortens every kernel.
void add_node_section(nlohmann::json& header, bool quick, bool progress);

}  // namespace augur::bench
