// Open MPI's special Fortran addresses, as its own bindings recognise them: the generated header
// it installs names the common blocks under the mangling its Fortran compiler uses.
#include <mpi.h>
// Open MPI only, as entry_points.cpp says.
#ifdef OPEN_MPI
#include "revprof/shim/fortran/arguments.hpp"

extern "C" {
#include <mpif-c-constants-decl.h>
}

namespace augur::revprof::fortran {

void* c_buffer(void* fortran_address) {
  if (OMPI_IS_FORTRAN_BOTTOM(fortran_address)) return MPI_BOTTOM;
  if (OMPI_IS_FORTRAN_IN_PLACE(fortran_address)) return MPI_IN_PLACE;
  return fortran_address;
}

const int* c_int_array(const int* fortran_address) {
  if (OMPI_IS_FORTRAN_UNWEIGHTED(fortran_address)) return MPI_UNWEIGHTED;
  if (OMPI_IS_FORTRAN_WEIGHTS_EMPTY(fortran_address)) return MPI_WEIGHTS_EMPTY;
  return fortran_address;
}

bool ignores_status(const MPI_Fint* status) {
  return OMPI_IS_FORTRAN_STATUS_IGNORE(status) || status == MPI_F_STATUS_IGNORE;
}

bool ignores_statuses(const MPI_Fint* statuses) {
  return OMPI_IS_FORTRAN_STATUSES_IGNORE(statuses) || statuses == MPI_F_STATUSES_IGNORE;
}

}  // namespace augur::revprof::fortran

#endif  // OPEN_MPI
