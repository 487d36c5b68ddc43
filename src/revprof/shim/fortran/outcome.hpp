#pragma once
// What every Fortran entry point does with the call's result, whichever MPI's bindings it
// stands in for (arguments.hpp for Open MPI's, mpich_arguments.hpp for MPICH's mpi_f08).
#include <mpi.h>

namespace augur::revprof::fortran {

// How one call ended, for the holders that write its results back once it has.
struct Outcome {
  int rc = MPI_ERR_OTHER;
  // The call's status is written back whatever it returned: Open MPI hands it to C in place
  // (receives and probes) or copies it back unconditionally (MPI_Request_get_status).
  bool status_always = false;
  bool succeeded() const { return rc == MPI_SUCCESS; }
};

// Sets the optional error argument (mpi_f08 may leave it out).
inline void set_error(MPI_Fint* ierror, int rc) {
  if (ierror) *ierror = rc;
}

}  // namespace augur::revprof::fortran
