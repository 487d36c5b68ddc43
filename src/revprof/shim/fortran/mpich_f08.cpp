// MPICH's `use mpi_f08` names of the calls the shim wraps that take no buffer.
//
// MPICH's mpif.h and `use mpi` call the C library by its MPI_* names, which the shim wraps, and
// so do its mpi_f08 calls with a buffer (`mpi_send_f08ts_` hands its Fortran descriptor to a C
// function of MPICH's Fortran library that calls MPI_Send). Its mpi_f08 calls without a buffer
// (`mpi_init_f08_`, `mpi_wait_f08_`, `mpi_barrier_f08_`...) call PMPI_* directly, so the shim
// exports these names itself and forwards each to its C wrapper, as for Open MPI's bindings
// (entry_points.cpp), with the arguments mpich_arguments.hpp converts.
#include <mpi.h>

#if defined(MPICH) && !defined(OPEN_MPI)
#include <cstddef>
#include <string>

#include "revprof/shim/fortran/forward.hpp"

// Point to point and single requests.
AUGUR_FORTRAN_F08(mpi_probe, MPI_Probe, 4)
AUGUR_FORTRAN_F08(mpi_iprobe, MPI_Iprobe, 5)
AUGUR_FORTRAN_F08(mpi_mprobe, MPI_Mprobe, 5)
AUGUR_FORTRAN_F08(mpi_improbe, MPI_Improbe, 6)
AUGUR_FORTRAN_F08(mpi_start, MPI_Start, 1)
AUGUR_FORTRAN_F08(mpi_startall, MPI_Startall, 2)
AUGUR_FORTRAN_F08(mpi_wait, MPI_Wait, 2)
AUGUR_FORTRAN_F08(mpi_test, MPI_Test, 3)
AUGUR_FORTRAN_F08(mpi_request_get_status, MPI_Request_get_status, 3)
AUGUR_FORTRAN_F08(mpi_request_free, MPI_Request_free, 1)
AUGUR_FORTRAN_F08(mpi_buffer_detach, MPI_Buffer_detach, 2)

// Collectives without data.
AUGUR_FORTRAN_F08(mpi_barrier, MPI_Barrier, 1)
AUGUR_FORTRAN_F08(mpi_ibarrier, MPI_Ibarrier, 2)

// Communicators and datatypes the shim follows.
AUGUR_FORTRAN_F08(mpi_comm_dup, MPI_Comm_dup, 2)
AUGUR_FORTRAN_F08(mpi_comm_dup_with_info, MPI_Comm_dup_with_info, 3)
AUGUR_FORTRAN_F08(mpi_comm_idup, MPI_Comm_idup, 3)
AUGUR_FORTRAN_F08(mpi_comm_split, MPI_Comm_split, 4)
AUGUR_FORTRAN_F08(mpi_comm_split_type, MPI_Comm_split_type, 5)
AUGUR_FORTRAN_F08(mpi_comm_create, MPI_Comm_create, 3)
AUGUR_FORTRAN_F08(mpi_comm_create_group, MPI_Comm_create_group, 4)
AUGUR_FORTRAN_F08(mpi_intercomm_merge, MPI_Intercomm_merge, 3)
AUGUR_FORTRAN_F08(mpi_cart_create, MPI_Cart_create, 6)
AUGUR_FORTRAN_F08(mpi_cart_sub, MPI_Cart_sub, 3)
AUGUR_FORTRAN_F08(mpi_graph_create, MPI_Graph_create, 6)
AUGUR_FORTRAN_F08(mpi_dist_graph_create_adjacent, MPI_Dist_graph_create_adjacent, 10)
AUGUR_FORTRAN_F08(mpi_intercomm_create, MPI_Intercomm_create, 6)
AUGUR_FORTRAN_F08(mpi_comm_free, MPI_Comm_free, 1)
AUGUR_FORTRAN_F08(mpi_type_free, MPI_Type_free, 1)

// One-sided communication: windows the shim follows and their synchronisation.
AUGUR_FORTRAN_F08(mpi_win_fence, MPI_Win_fence, 2)
AUGUR_FORTRAN_F08(mpi_win_allocate, MPI_Win_allocate, 6)
AUGUR_FORTRAN_F08(mpi_win_allocate_shared, MPI_Win_allocate_shared, 6)
AUGUR_FORTRAN_F08(mpi_win_create_dynamic, MPI_Win_create_dynamic, 3)
AUGUR_FORTRAN_F08(mpi_win_free, MPI_Win_free, 1)
AUGUR_FORTRAN_F08(mpi_win_post, MPI_Win_post, 3)
AUGUR_FORTRAN_F08(mpi_win_start, MPI_Win_start, 3)
AUGUR_FORTRAN_F08(mpi_win_complete, MPI_Win_complete, 1)
AUGUR_FORTRAN_F08(mpi_win_wait, MPI_Win_wait, 1)
AUGUR_FORTRAN_F08(mpi_win_test, MPI_Win_test, 2)
AUGUR_FORTRAN_F08(mpi_win_lock, MPI_Win_lock, 4)
AUGUR_FORTRAN_F08(mpi_win_unlock, MPI_Win_unlock, 2)
AUGUR_FORTRAN_F08(mpi_win_lock_all, MPI_Win_lock_all, 2)
AUGUR_FORTRAN_F08(mpi_win_unlock_all, MPI_Win_unlock_all, 1)
AUGUR_FORTRAN_F08(mpi_win_flush, MPI_Win_flush, 2)
AUGUR_FORTRAN_F08(mpi_win_flush_all, MPI_Win_flush_all, 1)

using namespace augur::revprof::fortran;

namespace {

// What MPICH's binding makes of a filename: the Fortran string without its trailing blanks.
std::string c_string(const char* fortran, std::size_t length) {
  while (length > 0 && fortran[length - 1] == ' ') --length;
  return std::string(fortran, length);
}

// The 1-based indices MPICH's binding gives (mpich_arguments.hpp, kIndexBase).
void to_fortran_indices(MPI_Fint* indices, int count) {
  for (int i = 0; i < count; ++i) indices[i] = fortran_index(indices[i]);
}

}  // namespace

extern "C" {

void mpi_init_f08_(MPI_Fint* ierror) { set_error(ierror, MPI_Init(nullptr, nullptr)); }

void mpi_init_thread_f08_(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierror) {
  set_error(ierror, MPI_Init_thread(nullptr, nullptr, *required, provided));
}

void mpi_finalize_f08_(MPI_Fint* ierror) { set_error(ierror, MPI_Finalize()); }

double mpi_wtime_f08_() { return MPI_Wtime(); }

void mpi_pcontrol_f08_(MPI_Fint* level, MPI_Fint* ierror) { set_error(ierror, MPI_Pcontrol(*level)); }

void mpi_waitall_f08_(MPI_Fint* count, MPI_Fint* requests, MPI_Fint* statuses, MPI_Fint* ierror) {
  set_error(ierror, MPI_Waitall(*count, requests, c_statuses(statuses)));
}

void mpi_testall_f08_(MPI_Fint* count, MPI_Fint* requests, MPI_Fint* flag, MPI_Fint* statuses, MPI_Fint* ierror) {
  set_error(ierror, MPI_Testall(*count, requests, flag, c_statuses(statuses)));
}

void mpi_waitany_f08_(MPI_Fint* count, MPI_Fint* requests, MPI_Fint* index, MPI_Fint* status, MPI_Fint* ierror) {
  const int rc = MPI_Waitany(*count, requests, index, c_status(status));
  to_fortran_indices(index, 1);
  set_error(ierror, rc);
}

void mpi_testany_f08_(MPI_Fint* count, MPI_Fint* requests, MPI_Fint* index, MPI_Fint* flag, MPI_Fint* status,
                      MPI_Fint* ierror) {
  const int rc = MPI_Testany(*count, requests, index, flag, c_status(status));
  to_fortran_indices(index, 1);
  set_error(ierror, rc);
}

void mpi_waitsome_f08_(MPI_Fint* incount, MPI_Fint* requests, MPI_Fint* outcount, MPI_Fint* indices,
                       MPI_Fint* statuses, MPI_Fint* ierror) {
  const int rc = MPI_Waitsome(*incount, requests, outcount, indices, c_statuses(statuses));
  if (*outcount != MPI_UNDEFINED) to_fortran_indices(indices, *outcount);
  set_error(ierror, rc);
}

void mpi_testsome_f08_(MPI_Fint* incount, MPI_Fint* requests, MPI_Fint* outcount, MPI_Fint* indices,
                       MPI_Fint* statuses, MPI_Fint* ierror) {
  const int rc = MPI_Testsome(*incount, requests, outcount, indices, c_statuses(statuses));
  if (*outcount != MPI_UNDEFINED) to_fortran_indices(indices, *outcount);
  set_error(ierror, rc);
}

// gfortran passes the filename's length after the other arguments. MPICH's binding writes the
// file handle back whatever the call returned.
void mpi_file_open_f08_(MPI_Fint* comm, const char* filename, MPI_Fint* amode, MPI_Fint* info, MPI_Fint* fh,
                        MPI_Fint* ierror, std::size_t filename_length) {
  MPI_File file = MPI_FILE_NULL;
  const int rc = MPI_File_open(*comm, c_string(filename, filename_length).c_str(), *amode, *info, &file);
  *fh = PMPI_File_c2f(file);
  set_error(ierror, rc);
}

}  // extern "C"

#endif  // MPICH
