// Calls the reverse profiler does not predict: they run unchanged and the report lists them
// with their counts, so a user knows which costs the prediction leaves out.
#include <mpi.h>

#include "revprof/shim/runtime.hpp"

using augur::revprof::note_unmodelled;

extern "C" {

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

int MPI_Neighbor_allgatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int rcounts[],
                            const int displs[], MPI_Datatype rtype, MPI_Comm comm) {
  note_unmodelled("MPI_Neighbor_allgatherv");
  return PMPI_Neighbor_allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm);
}

int MPI_Neighbor_alltoallv(const void* sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype, void* rbuf,
                           const int rcounts[], const int rdispls[], MPI_Datatype rtype, MPI_Comm comm) {
  note_unmodelled("MPI_Neighbor_alltoallv");
  return PMPI_Neighbor_alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm);
}

int MPI_Neighbor_alltoallw(const void* sbuf, const int scounts[], const MPI_Aint sdispls[],
                           const MPI_Datatype stypes[], void* rbuf, const int rcounts[], const MPI_Aint rdispls[],
                           const MPI_Datatype rtypes[], MPI_Comm comm) {
  note_unmodelled("MPI_Neighbor_alltoallw");
  return PMPI_Neighbor_alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm);
}

// Their requests are not followed: MPI_Wait completes them as the program's own (requests.hpp).
int MPI_Ineighbor_allgather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                            MPI_Datatype rtype, MPI_Comm comm, MPI_Request* request) {
  note_unmodelled("MPI_Ineighbor_allgather");
  return PMPI_Ineighbor_allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm, request);
}

int MPI_Ineighbor_allgatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int rcounts[],
                             const int displs[], MPI_Datatype rtype, MPI_Comm comm, MPI_Request* request) {
  note_unmodelled("MPI_Ineighbor_allgatherv");
  return PMPI_Ineighbor_allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, request);
}

int MPI_Ineighbor_alltoall(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount,
                           MPI_Datatype rtype, MPI_Comm comm, MPI_Request* request) {
  note_unmodelled("MPI_Ineighbor_alltoall");
  return PMPI_Ineighbor_alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm, request);
}

int MPI_Ineighbor_alltoallv(const void* sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype,
                            void* rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype, MPI_Comm comm,
                            MPI_Request* request) {
  note_unmodelled("MPI_Ineighbor_alltoallv");
  return PMPI_Ineighbor_alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, request);
}

int MPI_Ineighbor_alltoallw(const void* sbuf, const int scounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype stypes[], void* rbuf, const int rcounts[], const MPI_Aint rdispls[],
                            const MPI_Datatype rtypes[], MPI_Comm comm, MPI_Request* request) {
  note_unmodelled("MPI_Ineighbor_alltoallw");
  return PMPI_Ineighbor_alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm, request);
}

// MPI 4 (MPICH 4): partitioned communication pairs only with itself and persistent collectives
// exchange nothing a point-to-point receive could see, so they run as they are, named.
#if MPI_VERSION >= 4
int MPI_Psend_init(const void* buf, int partitions, MPI_Count count, MPI_Datatype type, int dest, int tag,
                   MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  note_unmodelled("MPI_Psend_init");
  return PMPI_Psend_init(buf, partitions, count, type, dest, tag, comm, info, request);
}

int MPI_Precv_init(void* buf, int partitions, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                   MPI_Info info, MPI_Request* request) {
  note_unmodelled("MPI_Precv_init");
  return PMPI_Precv_init(buf, partitions, count, type, source, tag, comm, info, request);
}

int MPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  note_unmodelled("MPI_Barrier_init");
  return PMPI_Barrier_init(comm, info, request);
}

int MPI_Bcast_init(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Info info,
                   MPI_Request* request) {
  note_unmodelled("MPI_Bcast_init");
  return PMPI_Bcast_init(buf, count, type, root, comm, info, request);
}

int MPI_Reduce_init(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
                    MPI_Info info, MPI_Request* request) {
  note_unmodelled("MPI_Reduce_init");
  return PMPI_Reduce_init(sbuf, rbuf, count, type, op, root, comm, info, request);
}

int MPI_Allreduce_init(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                       MPI_Info info, MPI_Request* request) {
  note_unmodelled("MPI_Allreduce_init");
  return PMPI_Allreduce_init(sbuf, rbuf, count, type, op, comm, info, request);
}

int MPI_Allgather_init(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                       MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  note_unmodelled("MPI_Allgather_init");
  return PMPI_Allgather_init(sbuf, scount, stype, rbuf, rcount, rtype, comm, info, request);
}

int MPI_Alltoall_init(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                      MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  note_unmodelled("MPI_Alltoall_init");
  return PMPI_Alltoall_init(sbuf, scount, stype, rbuf, rcount, rtype, comm, info, request);
}
#endif  // MPI_VERSION >= 4

}  // extern "C"
