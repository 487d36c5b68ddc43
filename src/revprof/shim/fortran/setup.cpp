// Fortran names of the start and end of a run, the clock, profiling control and buffer
// detachment, whose Fortran arguments differ from C's. Open MPI's
// Fortran MPI_INIT calls PMPI_Init with no command line, which the shim's MPI_Init does too.
#include <mpi.h>
// Open MPI only, as entry_points.cpp says.
#ifdef OPEN_MPI
#include "revprof/shim/fortran/forward.hpp"


using namespace augur::revprof::fortran;

extern "C" {

void mpi_init_(MPI_Fint* ierror) { set_error(ierror, MPI_Init(nullptr, nullptr)); }

void mpi_init_thread_(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierror) {
  set_error(ierror, MPI_Init_thread(nullptr, nullptr, *required, provided));
}

void mpi_finalize_(MPI_Fint* ierror) { set_error(ierror, MPI_Finalize()); }

double mpi_wtime_() { return MPI_Wtime(); }

// MPI_PCONTROL(LEVEL) has no error argument in Fortran.
void mpi_pcontrol_(MPI_Fint* level) { MPI_Pcontrol(*level); }

// Fortran cannot receive the buffer's address; Open MPI's binding drops it too.
void mpi_buffer_detach_(void*, MPI_Fint* size, MPI_Fint* ierror) {
  void* address = nullptr;
  set_error(ierror, MPI_Buffer_detach(&address, size));
}

}  // extern "C"

AUGUR_FORTRAN_ALIASES(mpi_init, MPI_INIT)
AUGUR_FORTRAN_ALIASES(mpi_init_thread, MPI_INIT_THREAD)
AUGUR_FORTRAN_ALIASES(mpi_finalize, MPI_FINALIZE)
AUGUR_FORTRAN_ALIASES(mpi_wtime, MPI_WTIME)
AUGUR_FORTRAN_ALIASES(mpi_pcontrol, MPI_PCONTROL)
AUGUR_FORTRAN_ALIASES(mpi_buffer_detach, MPI_BUFFER_DETACH)

#endif  // OPEN_MPI
