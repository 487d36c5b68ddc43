#pragma once
// The name native traces give an MPI function: the reverse profiler's operation names.
#include <string>
#include <string_view>

namespace augur::trace {

// "MPI_Send" → "send", "MPI_Isend"/"MPI_Issend" → "isend1", "MPI_Waitall" → "wait",
// "MPI_Allreduce" → "allreduce"; a name without the MPI_ prefix (augur's own) is kept.
std::string operation_name(std::string_view mpi_name);

}  // namespace augur::trace
