// MPICH's `use mpi_f08` calls the C library through its PMPI_* names and hands buffers over as
// Fortran descriptors, so the shim sees none of such a program's calls. Rather than predict a
// run from its start and end alone, the run goes on unpredicted and the report says why.
// (MPICH's mpif.h and `use mpi` call the MPI_* names, which the shim wraps; Open MPI's three
// interfaces are in entry_points.cpp.)
#include <mpi.h>

#if defined(MPICH) && !defined(OPEN_MPI)
#include "revprof/shim/runtime.hpp"

namespace {

constexpr const char* kWhy =
    "the program uses MPICH's mpi_f08 module, whose calls augur does not see; use `use mpi` or "
    "mpif.h, or Open MPI, whose mpi_f08 calls augur sees";

void set_error(MPI_Fint* ierror, int rc) {
  if (ierror) *ierror = rc;
}

}  // namespace

extern "C" {

void mpi_init_f08_(MPI_Fint* ierror) {
  set_error(ierror, MPI_Init(nullptr, nullptr));
  augur::revprof::refuse_prediction(kWhy);
}

void mpi_init_thread_f08_(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierror) {
  set_error(ierror, MPI_Init_thread(nullptr, nullptr, *required, provided));
  augur::revprof::refuse_prediction(kWhy);
}

void mpi_finalize_f08_(MPI_Fint* ierror) { set_error(ierror, MPI_Finalize()); }

}  // extern "C"
#endif
