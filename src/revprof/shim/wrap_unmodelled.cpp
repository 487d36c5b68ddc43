// Calls the reverse profiler does not predict: they run unchanged and the report lists them
// with their counts, so a user knows which costs the prediction leaves out. One row a call:
// its name without the prefix, its C parameters and the arguments the real call takes.
#include <mpi.h>

#include "revprof/shim/runtime.hpp"

using augur::revprof::note_unmodelled;

#define AUGUR_UNMODELLED(name, params, args) \
  int MPI_##name params {                     \
    note_unmodelled("MPI_" #name);            \
    return PMPI_##name args;                  \
  }

extern "C" {

AUGUR_UNMODELLED(File_open, (MPI_Comm comm, const char* filename, int amode, MPI_Info info, MPI_File* fh),
                 (comm, filename, amode, info, fh))
AUGUR_UNMODELLED(File_read_at,
                 (MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype type, MPI_Status* status),
                 (fh, offset, buf, count, type, status))
AUGUR_UNMODELLED(File_write_at,
                 (MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype type, MPI_Status* status),
                 (fh, offset, buf, count, type, status))
AUGUR_UNMODELLED(File_read_all, (MPI_File fh, void* buf, int count, MPI_Datatype type, MPI_Status* status),
                 (fh, buf, count, type, status))
AUGUR_UNMODELLED(File_write_all, (MPI_File fh, const void* buf, int count, MPI_Datatype type, MPI_Status* status),
                 (fh, buf, count, type, status))
AUGUR_UNMODELLED(Comm_idup, (MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request), (comm, newcomm, request))
AUGUR_UNMODELLED(Intercomm_create,
                 (MPI_Comm local, int local_leader, MPI_Comm peer, int remote_leader, int tag, MPI_Comm* newcomm),
                 (local, local_leader, peer, remote_leader, tag, newcomm))
AUGUR_UNMODELLED(Neighbor_alltoall,
                 (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                  MPI_Comm comm),
                 (sbuf, scount, stype, rbuf, rcount, rtype, comm))
AUGUR_UNMODELLED(Neighbor_allgather,
                 (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                  MPI_Comm comm),
                 (sbuf, scount, stype, rbuf, rcount, rtype, comm))
AUGUR_UNMODELLED(Neighbor_allgatherv,
                 (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int rcounts[],
                  const int displs[], MPI_Datatype rtype, MPI_Comm comm),
                 (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm))
AUGUR_UNMODELLED(Neighbor_alltoallv,
                 (const void* sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype, void* rbuf,
                  const int rcounts[], const int rdispls[], MPI_Datatype rtype, MPI_Comm comm),
                 (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm))
AUGUR_UNMODELLED(Neighbor_alltoallw,
                 (const void* sbuf, const int scounts[], const MPI_Aint sdispls[], const MPI_Datatype stypes[],
                  void* rbuf, const int rcounts[], const MPI_Aint rdispls[], const MPI_Datatype rtypes[],
                  MPI_Comm comm),
                 (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm))

// Their requests are not followed: MPI_Wait completes them as the program's own (requests.hpp).
AUGUR_UNMODELLED(Ineighbor_allgather,
                 (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                  MPI_Comm comm, MPI_Request* request),
                 (sbuf, scount, stype, rbuf, rcount, rtype, comm, request))
AUGUR_UNMODELLED(Ineighbor_allgatherv,
                 (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int rcounts[],
                  const int displs[], MPI_Datatype rtype, MPI_Comm comm, MPI_Request* request),
                 (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, request))
AUGUR_UNMODELLED(Ineighbor_alltoall,
                 (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                  MPI_Comm comm, MPI_Request* request),
                 (sbuf, scount, stype, rbuf, rcount, rtype, comm, request))
AUGUR_UNMODELLED(Ineighbor_alltoallv,
                 (const void* sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype, void* rbuf,
                  const int rcounts[], const int rdispls[], MPI_Datatype rtype, MPI_Comm comm, MPI_Request* request),
                 (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, request))
AUGUR_UNMODELLED(Ineighbor_alltoallw,
                 (const void* sbuf, const int scounts[], const MPI_Aint sdispls[], const MPI_Datatype stypes[],
                  void* rbuf, const int rcounts[], const MPI_Aint rdispls[], const MPI_Datatype rtypes[],
                  MPI_Comm comm, MPI_Request* request),
                 (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm, request))

// MPI 4 (MPICH 4): partitioned communication pairs only with itself and persistent collectives
// exchange nothing a point-to-point receive could see, so they run as they are, named.
#if MPI_VERSION >= 4
AUGUR_UNMODELLED(Psend_init,
                 (const void* buf, int partitions, MPI_Count count, MPI_Datatype type, int dest, int tag,
                  MPI_Comm comm, MPI_Info info, MPI_Request* request),
                 (buf, partitions, count, type, dest, tag, comm, info, request))
AUGUR_UNMODELLED(Precv_init,
                 (void* buf, int partitions, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                  MPI_Info info, MPI_Request* request),
                 (buf, partitions, count, type, source, tag, comm, info, request))
AUGUR_UNMODELLED(Barrier_init, (MPI_Comm comm, MPI_Info info, MPI_Request* request), (comm, info, request))
AUGUR_UNMODELLED(Bcast_init,
                 (void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Info info,
                  MPI_Request* request),
                 (buf, count, type, root, comm, info, request))
AUGUR_UNMODELLED(Reduce_init,
                 (const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
                  MPI_Info info, MPI_Request* request),
                 (sbuf, rbuf, count, type, op, root, comm, info, request))
AUGUR_UNMODELLED(Allreduce_init,
                 (const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                  MPI_Info info, MPI_Request* request),
                 (sbuf, rbuf, count, type, op, comm, info, request))
AUGUR_UNMODELLED(Allgather_init,
                 (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                  MPI_Comm comm, MPI_Info info, MPI_Request* request),
                 (sbuf, scount, stype, rbuf, rcount, rtype, comm, info, request))
AUGUR_UNMODELLED(Alltoall_init,
                 (const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                  MPI_Comm comm, MPI_Info info, MPI_Request* request),
                 (sbuf, scount, stype, rbuf, rcount, rtype, comm, info, request))
#endif  // MPI_VERSION >= 4

}  // extern "C"
