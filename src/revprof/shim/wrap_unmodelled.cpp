// Calls the reverse profiler does not predict: they run unchanged and the report lists them
// with their counts, so a user knows which costs the prediction leaves out.
#include <mpi.h>

#include "revprof/shim/runtime.hpp"

using augur::revprof::note_unmodelled;

extern "C" {

int MPI_Put(const void* origin, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
            MPI_Datatype ttype, MPI_Win win) {
  note_unmodelled("MPI_Put");
  return PMPI_Put(origin, ocount, otype, target, disp, tcount, ttype, win);
}

int MPI_Get(void* origin, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount, MPI_Datatype ttype,
            MPI_Win win) {
  note_unmodelled("MPI_Get");
  return PMPI_Get(origin, ocount, otype, target, disp, tcount, ttype, win);
}

int MPI_Accumulate(const void* origin, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
                   MPI_Datatype ttype, MPI_Op op, MPI_Win win) {
  note_unmodelled("MPI_Accumulate");
  return PMPI_Accumulate(origin, ocount, otype, target, disp, tcount, ttype, op, win);
}

int MPI_Win_fence(int assert_flags, MPI_Win win) {
  note_unmodelled("MPI_Win_fence");
  return PMPI_Win_fence(assert_flags, win);
}

int MPI_Win_lock(int lock_type, int rank, int assert_flags, MPI_Win win) {
  note_unmodelled("MPI_Win_lock");
  return PMPI_Win_lock(lock_type, rank, assert_flags, win);
}

int MPI_Win_unlock(int rank, MPI_Win win) {
  note_unmodelled("MPI_Win_unlock");
  return PMPI_Win_unlock(rank, win);
}

int MPI_File_open(MPI_Comm comm, const char* filename, int amode, MPI_Info info, MPI_File* fh) {
  note_unmodelled("MPI_File_open");
  return PMPI_File_open(comm, filename, amode, info, fh);
}

int MPI_File_read_at(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype type, MPI_Status* status) {
  note_unmodelled("MPI_File_read_at");
  return PMPI_File_read_at(fh, offset, buf, count, type, status);
}

int MPI_File_write_at(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype type,
                      MPI_Status* status) {
  note_unmodelled("MPI_File_write_at");
  return PMPI_File_write_at(fh, offset, buf, count, type, status);
}

int MPI_File_read_all(MPI_File fh, void* buf, int count, MPI_Datatype type, MPI_Status* status) {
  note_unmodelled("MPI_File_read_all");
  return PMPI_File_read_all(fh, buf, count, type, status);
}

int MPI_File_write_all(MPI_File fh, const void* buf, int count, MPI_Datatype type, MPI_Status* status) {
  note_unmodelled("MPI_File_write_all");
  return PMPI_File_write_all(fh, buf, count, type, status);
}

int MPI_Comm_idup(MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request) {
  note_unmodelled("MPI_Comm_idup");
  return PMPI_Comm_idup(comm, newcomm, request);
}

int MPI_Intercomm_create(MPI_Comm local, int local_leader, MPI_Comm peer, int remote_leader, int tag,
                         MPI_Comm* newcomm) {
  note_unmodelled("MPI_Intercomm_create");
  return PMPI_Intercomm_create(local, local_leader, peer, remote_leader, tag, newcomm);
}

int MPI_Neighbor_alltoall(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                          MPI_Datatype rtype, MPI_Comm comm) {
  note_unmodelled("MPI_Neighbor_alltoall");
  return PMPI_Neighbor_alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

int MPI_Neighbor_allgather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                           MPI_Datatype rtype, MPI_Comm comm) {
  note_unmodelled("MPI_Neighbor_allgather");
  return PMPI_Neighbor_allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}

}  // extern "C"
