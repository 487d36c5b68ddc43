#pragma once
// Control variables the MPI library exposes through the MPI tool interface (MPI_T) that shape
// point-to-point performance: eager limits and rendezvous thresholds. Recorded as provenance so
// a model says which protocol switch its breakpoints come from.
#include <nlohmann/json.hpp>

namespace augur::bench {

// {"name": value, …} for the integer variables whose names mention eager or rendezvous limits;
// empty when the library has no MPI_T or no such variable. Call between MPI_Init and
// MPI_Finalize.
nlohmann::json protocol_control_variables();

}  // namespace augur::bench
