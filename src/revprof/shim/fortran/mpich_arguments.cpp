// MPICH's special Fortran addresses, as its mpi_f08 bindings recognise them. The ignored
// statuses are MPI 4's MPI_F08_STATUS(ES)_IGNORE of the C library; MPI_UNWEIGHTED and
// MPI_WEIGHTS_EMPTY are objects of MPICH's Fortran library only, referred to weakly so that the
// shim loads into C programs without it.
#include <mpi.h>
// MPICH only, as mpich_f08.cpp says.
#if defined(MPICH) && !defined(OPEN_MPI)
#include "revprof/shim/fortran/mpich_arguments.hpp"

extern "C" {
extern MPI_Fint f08_unweighted[] __asm__("__mpi_f08_link_constants_MOD_mpi_unweighted") __attribute__((weak));
extern MPI_Fint f08_weights_empty[] __asm__("__mpi_f08_link_constants_MOD_mpi_weights_empty")
    __attribute__((weak));
}

namespace augur::revprof::fortran {

MPI_Status* c_status(MPI_Fint* fortran_address) {
  if (reinterpret_cast<MPI_F08_status*>(fortran_address) == MPI_F08_STATUS_IGNORE) return MPI_STATUS_IGNORE;
  return reinterpret_cast<MPI_Status*>(fortran_address);
}

MPI_Status* c_statuses(MPI_Fint* fortran_address) {
  if (reinterpret_cast<MPI_F08_status*>(fortran_address) == MPI_F08_STATUSES_IGNORE) return MPI_STATUSES_IGNORE;
  return reinterpret_cast<MPI_Status*>(fortran_address);
}

const int* c_int_array(const int* fortran_address) {
  if (fortran_address == f08_unweighted) return MPI_UNWEIGHTED;
  if (fortran_address == f08_weights_empty) return MPI_WEIGHTS_EMPTY;
  return fortran_address;
}

}  // namespace augur::revprof::fortran

#endif
