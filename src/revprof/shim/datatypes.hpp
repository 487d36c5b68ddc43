#pragma once
// What the shim needs to know of a datatype on every message: its size and whether its
// elements lie end to end. Asking MPI costs three calls per message; the answers are kept per
// handle and forgotten when the program frees a datatype (MPI_Type_free is intercepted), since
// MPI may hand the same handle to a later, different datatype. Under MPICH only predefined
// datatypes are kept: its mpi_f08 builds a datatype for each non-contiguous array section it
// sends and frees it with PMPI_Type_free, which the shim does not see.
#include <mpi.h>

namespace augur::revprof {

struct Layout {
  MPI_Count size = 0;       // bytes of data in one element, which may exceed INT_MAX
  bool contiguous = false;  // elements are one run of bytes, with no gaps and no offset
};

Layout layout_of(MPI_Datatype type);
void forget_layout(MPI_Datatype type);

}  // namespace augur::revprof
