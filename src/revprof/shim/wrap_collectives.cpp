// Collectives: the real operation runs unchanged, then the members exchange their virtual start
// times on the shadow communicator and each leaves at the time the rules give for its role.
#include <mpi.h>

#include <numeric>

#include "revprof/shim/requests.hpp"
#include "revprof/shim/runtime.hpp"

using namespace augur::revprof;

namespace {

// A rank's message size (docs/revprof-clocks.md, "Collectives"), worked out from the shadow's
// rank and size once the call's clock has started: work done before it would count as the
// program's compute.
auto bytes_of(MPI_Count count, MPI_Datatype type) {
  return [=](const Shadow&) { return message_bytes(count, type); };
}
// Rooted: the root's size is its whole buffer, the others' their part.
template <class AtRoot, class Elsewhere>
auto rooted(int root, AtRoot at_root, Elsewhere elsewhere) {
  return [=](const Shadow& s) { return s.rank == root ? at_root(s) : elsewhere(s); };
}
// v-variants: the mean over the members.
template <class Count>  // int, or MPI_Count for MPI 4's large-count calls
auto mean_bytes(const Count* counts, MPI_Datatype type) {
  return [=](const Shadow& s) {
    const double total = counts ? std::accumulate(counts, counts + s.size, 0.0) : 0.0;
    return total / s.size * message_bytes(1, type);
  };
}

// Alltoallw: each member's own datatype.
template <class Count>
auto mean_bytes_w(const Count* counts, const MPI_Datatype* types) {
  return [=](const Shadow& s) {
    double total = 0;
    for (int i = 0; counts && types && i < s.size; ++i) total += message_bytes(counts[i], types[i]);
    return total / s.size;
  };
}

// The shadow to exchange start times on, or nullptr for a communicator the shim does not
// track (then the call is not predicted, and the report lists it).
const Shadow* modelled_shadow(Call& call, MPI_Comm comm, std::string_view op) {
  const Shadow* s = shadow_of(comm);
  if (!s) call.unmodelled(op);
  return s;
}

// `root` is -1 for collectives without one; `bytes` gives this rank's message size.
template <class Bytes, class Real>
int blocking(std::string_view op, MPI_Comm comm, int root, Bytes bytes, Real real) {
  return intercept(op, real, [&](Call& call) {
    const Shadow* s = modelled_shadow(call, comm, op);
    int rc = call.real(real);
    if (!s) return rc;
    auto c = make_record(op, *s, root, call.begin(), bytes(*s));
    exchange_starts(c, true);
    Times waiting;
    const Times end = collective_finish(c, waiting);
    trace_collective(c, end, root);
    call.finish(end, waiting, c.all.bytes);
    return rc;
  });
}

template <class Bytes, class Real>
int nonblocking(std::string_view op, MPI_Comm comm, int root, Bytes bytes, MPI_Request* request, Real real) {
  return intercept(op, real, [&](Call& call) {
    const Shadow* s = modelled_shadow(call, comm, op);
    int rc = call.real(real);
    if (!s) return rc;
    TrackedRequest r;
    r.kind = TrackedRequest::Kind::collective;
    r.op = op;
    // The exchange writes into the tracked record, whose address the request table keeps stable.
    auto& tracked = track_request(*request, std::move(r));
    tracked.collective = make_record(op, *s, root, call.begin(), bytes(*s));
    exchange_starts(tracked.collective, false);
    call.finish(call.begin(), {}, 0);
    return rc;
  });
}

}  // namespace

extern "C" {

int MPI_Barrier(MPI_Comm comm) {
  return blocking("barrier", comm, -1, bytes_of(0, MPI_DATATYPE_NULL), [&] { return PMPI_Barrier(comm); });
}

int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  return blocking("bcast", comm, root, bytes_of(count, type), [&] { return PMPI_Bcast(buf, count, type, root, comm); });
}

int MPI_Reduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm) {
  return blocking("reduce", comm, root, bytes_of(count, type),
                  [&] { return PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm); });
}

int MPI_Allreduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return blocking("allreduce", comm, -1, bytes_of(count, type),
                  [&] { return PMPI_Allreduce(sbuf, rbuf, count, type, op, comm); });
}

int MPI_Gather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype, int root,
               MPI_Comm comm) {
  return blocking("gather", comm, root, rooted(root, bytes_of(rcount, rtype), bytes_of(scount, stype)),
                  [&] { return PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm); });
}

int MPI_Gatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int rcounts[], const int displs[],
                MPI_Datatype rtype, int root, MPI_Comm comm) {
  return blocking("gatherv", comm, root, rooted(root, mean_bytes(rcounts, rtype), bytes_of(scount, stype)),
                  [&] { return PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm); });
}

int MPI_Scatter(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype, int root,
                MPI_Comm comm) {
  return blocking("scatter", comm, root, rooted(root, bytes_of(scount, stype), bytes_of(rcount, rtype)),
                  [&] { return PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm); });
}

int MPI_Scatterv(const void* sbuf, const int scounts[], const int displs[], MPI_Datatype stype, void* rbuf, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm) {
  return blocking("scatterv", comm, root, rooted(root, mean_bytes(scounts, stype), bytes_of(rcount, rtype)),
                  [&] { return PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm); });
}

int MPI_Allgather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                  MPI_Comm comm) {
  return blocking("allgather", comm, -1, bytes_of(rcount, rtype),
                  [&] { return PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm); });
}

int MPI_Allgatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int rcounts[], const int displs[],
                   MPI_Datatype rtype, MPI_Comm comm) {
  return blocking("allgatherv", comm, -1, mean_bytes(rcounts, rtype),
                  [&] { return PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm); });
}

int MPI_Alltoall(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                 MPI_Comm comm) {
  return blocking("alltoall", comm, -1, bytes_of(rcount, rtype),
                  [&] { return PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm); });
}

int MPI_Alltoallv(const void* sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype, void* rbuf,
                  const int rcounts[], const int rdispls[], MPI_Datatype rtype, MPI_Comm comm) {
  return blocking("alltoallv", comm, -1, mean_bytes(rcounts, rtype), [&] {
    return PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm);
  });
}

int MPI_Alltoallw(const void* sbuf, const int scounts[], const int sdispls[], const MPI_Datatype stypes[], void* rbuf,
                  const int rcounts[], const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm) {
  return blocking("alltoallw", comm, -1, mean_bytes_w(rcounts, rtypes), [&] {
    return PMPI_Alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm);
  });
}

int MPI_Reduce_scatter(const void* sbuf, void* rbuf, const int rcounts[], MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return blocking("reduce_scatter", comm, -1, mean_bytes(rcounts, type),
                  [&] { return PMPI_Reduce_scatter(sbuf, rbuf, rcounts, type, op, comm); });
}

int MPI_Reduce_scatter_block(const void* sbuf, void* rbuf, int rcount, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return blocking("reduce_scatter_block", comm, -1, bytes_of(rcount, type),
                  [&] { return PMPI_Reduce_scatter_block(sbuf, rbuf, rcount, type, op, comm); });
}

int MPI_Scan(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return blocking("scan", comm, -1, bytes_of(count, type), [&] { return PMPI_Scan(sbuf, rbuf, count, type, op, comm); });
}

int MPI_Exscan(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return blocking("exscan", comm, -1, bytes_of(count, type),
                  [&] { return PMPI_Exscan(sbuf, rbuf, count, type, op, comm); });
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
  return nonblocking("ibarrier", comm, -1, bytes_of(0, MPI_DATATYPE_NULL), request,
                     [&] { return PMPI_Ibarrier(comm, request); });
}

int MPI_Ibcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request* request) {
  return nonblocking("ibcast", comm, root, bytes_of(count, type), request,
                     [&] { return PMPI_Ibcast(buf, count, type, root, comm, request); });
}

int MPI_Ireduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
                MPI_Request* request) {
  return nonblocking("ireduce", comm, root, bytes_of(count, type), request,
                     [&] { return PMPI_Ireduce(sbuf, rbuf, count, type, op, root, comm, request); });
}

int MPI_Iallreduce(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                   MPI_Request* request) {
  return nonblocking("iallreduce", comm, -1, bytes_of(count, type), request,
                     [&] { return PMPI_Iallreduce(sbuf, rbuf, count, type, op, comm, request); });
}

int MPI_Igather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype, int root,
                MPI_Comm comm, MPI_Request* request) {
  return nonblocking("igather", comm, root, rooted(root, bytes_of(rcount, rtype), bytes_of(scount, stype)), request,
                     [&] { return PMPI_Igather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, request); });
}

int MPI_Igatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int rcounts[], const int displs[],
                 MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request* request) {
  return nonblocking("igatherv", comm, root, rooted(root, mean_bytes(rcounts, rtype), bytes_of(scount, stype)),
                     request, [&] {
                       return PMPI_Igatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, request);
                     });
}

int MPI_Iscatterv(const void* sbuf, const int scounts[], const int displs[], MPI_Datatype stype, void* rbuf,
                  int rcount, MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request* request) {
  return nonblocking("iscatterv", comm, root, rooted(root, mean_bytes(scounts, stype), bytes_of(rcount, rtype)),
                     request, [&] {
                       return PMPI_Iscatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, request);
                     });
}

int MPI_Iscatter(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype, int root,
                 MPI_Comm comm, MPI_Request* request) {
  return nonblocking("iscatter", comm, root, rooted(root, bytes_of(scount, stype), bytes_of(rcount, rtype)), request,
                     [&] { return PMPI_Iscatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, request); });
}

int MPI_Iallgather(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                   MPI_Comm comm, MPI_Request* request) {
  return nonblocking("iallgather", comm, -1, bytes_of(rcount, rtype), request,
                     [&] { return PMPI_Iallgather(sbuf, scount, stype, rbuf, rcount, rtype, comm, request); });
}

int MPI_Iallgatherv(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, const int rcounts[],
                    const int displs[], MPI_Datatype rtype, MPI_Comm comm, MPI_Request* request) {
  return nonblocking("iallgatherv", comm, -1, mean_bytes(rcounts, rtype), request, [&] {
    return PMPI_Iallgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, request);
  });
}

int MPI_Ialltoall(const void* sbuf, int scount, MPI_Datatype stype, void* rbuf, int rcount, MPI_Datatype rtype,
                  MPI_Comm comm, MPI_Request* request) {
  return nonblocking("ialltoall", comm, -1, bytes_of(rcount, rtype), request,
                     [&] { return PMPI_Ialltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm, request); });
}

int MPI_Ialltoallv(const void* sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype, void* rbuf,
                   const int rcounts[], const int rdispls[], MPI_Datatype rtype, MPI_Comm comm, MPI_Request* request) {
  return nonblocking("ialltoallv", comm, -1, mean_bytes(rcounts, rtype), request, [&] {
    return PMPI_Ialltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, request);
  });
}

int MPI_Ialltoallw(const void* sbuf, const int scounts[], const int sdispls[], const MPI_Datatype stypes[],
                   void* rbuf, const int rcounts[], const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm,
                   MPI_Request* request) {
  return nonblocking("ialltoallw", comm, -1, mean_bytes_w(rcounts, rtypes), request, [&] {
    return PMPI_Ialltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm, request);
  });
}

int MPI_Iscan(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
              MPI_Request* request) {
  return nonblocking("iscan", comm, -1, bytes_of(count, type), request,
                     [&] { return PMPI_Iscan(sbuf, rbuf, count, type, op, comm, request); });
}

int MPI_Iexscan(const void* sbuf, void* rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                MPI_Request* request) {
  return nonblocking("iexscan", comm, -1, bytes_of(count, type), request,
                     [&] { return PMPI_Iexscan(sbuf, rbuf, count, type, op, comm, request); });
}

int MPI_Ireduce_scatter(const void* sbuf, void* rbuf, const int rcounts[], MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                        MPI_Request* request) {
  return nonblocking("ireduce_scatter", comm, -1, mean_bytes(rcounts, type), request,
                     [&] { return PMPI_Ireduce_scatter(sbuf, rbuf, rcounts, type, op, comm, request); });
}

int MPI_Ireduce_scatter_block(const void* sbuf, void* rbuf, int rcount, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                              MPI_Request* request) {
  return nonblocking("ireduce_scatter_block", comm, -1, bytes_of(rcount, type), request,
                     [&] { return PMPI_Ireduce_scatter_block(sbuf, rbuf, rcount, type, op, comm, request); });
}

// MPI 4's large-count forms (MPICH 4): priced as the int-count forms above.
#if MPI_VERSION >= 4

int MPI_Bcast_c(void* buf, MPI_Count count, MPI_Datatype type, int root, MPI_Comm comm) {
  return blocking("bcast", comm, root, bytes_of(count, type), [&] { return PMPI_Bcast_c(buf, count, type, root, comm); });
}

int MPI_Reduce_c(const void* sbuf, void* rbuf, MPI_Count count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm) {
  return blocking("reduce", comm, root, bytes_of(count, type),
                  [&] { return PMPI_Reduce_c(sbuf, rbuf, count, type, op, root, comm); });
}

int MPI_Allreduce_c(const void* sbuf, void* rbuf, MPI_Count count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return blocking("allreduce", comm, -1, bytes_of(count, type),
                  [&] { return PMPI_Allreduce_c(sbuf, rbuf, count, type, op, comm); });
}

int MPI_Gather_c(const void* sbuf, MPI_Count scount, MPI_Datatype stype, void* rbuf, MPI_Count rcount, MPI_Datatype rtype, int root,
               MPI_Comm comm) {
  return blocking("gather", comm, root, rooted(root, bytes_of(rcount, rtype), bytes_of(scount, stype)),
                  [&] { return PMPI_Gather_c(sbuf, scount, stype, rbuf, rcount, rtype, root, comm); });
}

int MPI_Gatherv_c(const void* sbuf, MPI_Count scount, MPI_Datatype stype, void* rbuf, const MPI_Count rcounts[], const MPI_Aint displs[],
                MPI_Datatype rtype, int root, MPI_Comm comm) {
  return blocking("gatherv", comm, root, rooted(root, mean_bytes(rcounts, rtype), bytes_of(scount, stype)),
                  [&] { return PMPI_Gatherv_c(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm); });
}

int MPI_Scatter_c(const void* sbuf, MPI_Count scount, MPI_Datatype stype, void* rbuf, MPI_Count rcount, MPI_Datatype rtype, int root,
                MPI_Comm comm) {
  return blocking("scatter", comm, root, rooted(root, bytes_of(scount, stype), bytes_of(rcount, rtype)),
                  [&] { return PMPI_Scatter_c(sbuf, scount, stype, rbuf, rcount, rtype, root, comm); });
}

int MPI_Scatterv_c(const void* sbuf, const MPI_Count scounts[], const MPI_Aint displs[], MPI_Datatype stype, void* rbuf, MPI_Count rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm) {
  return blocking("scatterv", comm, root, rooted(root, mean_bytes(scounts, stype), bytes_of(rcount, rtype)),
                  [&] { return PMPI_Scatterv_c(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm); });
}

int MPI_Allgather_c(const void* sbuf, MPI_Count scount, MPI_Datatype stype, void* rbuf, MPI_Count rcount, MPI_Datatype rtype,
                  MPI_Comm comm) {
  return blocking("allgather", comm, -1, bytes_of(rcount, rtype),
                  [&] { return PMPI_Allgather_c(sbuf, scount, stype, rbuf, rcount, rtype, comm); });
}

int MPI_Allgatherv_c(const void* sbuf, MPI_Count scount, MPI_Datatype stype, void* rbuf, const MPI_Count rcounts[], const MPI_Aint displs[],
                   MPI_Datatype rtype, MPI_Comm comm) {
  return blocking("allgatherv", comm, -1, mean_bytes(rcounts, rtype),
                  [&] { return PMPI_Allgatherv_c(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm); });
}

int MPI_Alltoall_c(const void* sbuf, MPI_Count scount, MPI_Datatype stype, void* rbuf, MPI_Count rcount, MPI_Datatype rtype,
                 MPI_Comm comm) {
  return blocking("alltoall", comm, -1, bytes_of(rcount, rtype),
                  [&] { return PMPI_Alltoall_c(sbuf, scount, stype, rbuf, rcount, rtype, comm); });
}

int MPI_Alltoallv_c(const void* sbuf, const MPI_Count scounts[], const MPI_Aint sdispls[], MPI_Datatype stype, void* rbuf,
                  const MPI_Count rcounts[], const MPI_Aint rdispls[], MPI_Datatype rtype, MPI_Comm comm) {
  return blocking("alltoallv", comm, -1, mean_bytes(rcounts, rtype), [&] {
    return PMPI_Alltoallv_c(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm);
  });
}

int MPI_Alltoallw_c(const void* sbuf, const MPI_Count scounts[], const MPI_Aint sdispls[], const MPI_Datatype stypes[], void* rbuf,
                  const MPI_Count rcounts[], const MPI_Aint rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm) {
  return blocking("alltoallw", comm, -1, mean_bytes_w(rcounts, rtypes), [&] {
    return PMPI_Alltoallw_c(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm);
  });
}

int MPI_Reduce_scatter_c(const void* sbuf, void* rbuf, const MPI_Count rcounts[], MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return blocking("reduce_scatter", comm, -1, mean_bytes(rcounts, type),
                  [&] { return PMPI_Reduce_scatter_c(sbuf, rbuf, rcounts, type, op, comm); });
}

int MPI_Reduce_scatter_block_c(const void* sbuf, void* rbuf, MPI_Count rcount, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return blocking("reduce_scatter_block", comm, -1, bytes_of(rcount, type),
                  [&] { return PMPI_Reduce_scatter_block_c(sbuf, rbuf, rcount, type, op, comm); });
}

int MPI_Scan_c(const void* sbuf, void* rbuf, MPI_Count count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return blocking("scan", comm, -1, bytes_of(count, type), [&] { return PMPI_Scan_c(sbuf, rbuf, count, type, op, comm); });
}

int MPI_Exscan_c(const void* sbuf, void* rbuf, MPI_Count count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  return blocking("exscan", comm, -1, bytes_of(count, type),
                  [&] { return PMPI_Exscan_c(sbuf, rbuf, count, type, op, comm); });
}

int MPI_Ibcast_c(void* buf, MPI_Count count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request* request) {
  return nonblocking("ibcast", comm, root, bytes_of(count, type), request,
                     [&] { return PMPI_Ibcast_c(buf, count, type, root, comm, request); });
}

int MPI_Ireduce_c(const void* sbuf, void* rbuf, MPI_Count count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
                MPI_Request* request) {
  return nonblocking("ireduce", comm, root, bytes_of(count, type), request,
                     [&] { return PMPI_Ireduce_c(sbuf, rbuf, count, type, op, root, comm, request); });
}

int MPI_Iallreduce_c(const void* sbuf, void* rbuf, MPI_Count count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                   MPI_Request* request) {
  return nonblocking("iallreduce", comm, -1, bytes_of(count, type), request,
                     [&] { return PMPI_Iallreduce_c(sbuf, rbuf, count, type, op, comm, request); });
}

int MPI_Igather_c(const void* sbuf, MPI_Count scount, MPI_Datatype stype, void* rbuf, MPI_Count rcount, MPI_Datatype rtype, int root,
                MPI_Comm comm, MPI_Request* request) {
  return nonblocking("igather", comm, root, rooted(root, bytes_of(rcount, rtype), bytes_of(scount, stype)), request,
                     [&] { return PMPI_Igather_c(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, request); });
}

int MPI_Igatherv_c(const void* sbuf, MPI_Count scount, MPI_Datatype stype, void* rbuf, const MPI_Count rcounts[], const MPI_Aint displs[],
                 MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request* request) {
  return nonblocking("igatherv", comm, root, rooted(root, mean_bytes(rcounts, rtype), bytes_of(scount, stype)),
                     request, [&] {
                       return PMPI_Igatherv_c(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, request);
                     });
}

int MPI_Iscatterv_c(const void* sbuf, const MPI_Count scounts[], const MPI_Aint displs[], MPI_Datatype stype, void* rbuf,
                  MPI_Count rcount, MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request* request) {
  return nonblocking("iscatterv", comm, root, rooted(root, mean_bytes(scounts, stype), bytes_of(rcount, rtype)),
                     request, [&] {
                       return PMPI_Iscatterv_c(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, request);
                     });
}

int MPI_Iscatter_c(const void* sbuf, MPI_Count scount, MPI_Datatype stype, void* rbuf, MPI_Count rcount, MPI_Datatype rtype, int root,
                 MPI_Comm comm, MPI_Request* request) {
  return nonblocking("iscatter", comm, root, rooted(root, bytes_of(scount, stype), bytes_of(rcount, rtype)), request,
                     [&] { return PMPI_Iscatter_c(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, request); });
}

int MPI_Iallgather_c(const void* sbuf, MPI_Count scount, MPI_Datatype stype, void* rbuf, MPI_Count rcount, MPI_Datatype rtype,
                   MPI_Comm comm, MPI_Request* request) {
  return nonblocking("iallgather", comm, -1, bytes_of(rcount, rtype), request,
                     [&] { return PMPI_Iallgather_c(sbuf, scount, stype, rbuf, rcount, rtype, comm, request); });
}

int MPI_Iallgatherv_c(const void* sbuf, MPI_Count scount, MPI_Datatype stype, void* rbuf, const MPI_Count rcounts[],
                    const MPI_Aint displs[], MPI_Datatype rtype, MPI_Comm comm, MPI_Request* request) {
  return nonblocking("iallgatherv", comm, -1, mean_bytes(rcounts, rtype), request, [&] {
    return PMPI_Iallgatherv_c(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, request);
  });
}

int MPI_Ialltoall_c(const void* sbuf, MPI_Count scount, MPI_Datatype stype, void* rbuf, MPI_Count rcount, MPI_Datatype rtype,
                  MPI_Comm comm, MPI_Request* request) {
  return nonblocking("ialltoall", comm, -1, bytes_of(rcount, rtype), request,
                     [&] { return PMPI_Ialltoall_c(sbuf, scount, stype, rbuf, rcount, rtype, comm, request); });
}

int MPI_Ialltoallv_c(const void* sbuf, const MPI_Count scounts[], const MPI_Aint sdispls[], MPI_Datatype stype, void* rbuf,
                   const MPI_Count rcounts[], const MPI_Aint rdispls[], MPI_Datatype rtype, MPI_Comm comm, MPI_Request* request) {
  return nonblocking("ialltoallv", comm, -1, mean_bytes(rcounts, rtype), request, [&] {
    return PMPI_Ialltoallv_c(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, request);
  });
}

int MPI_Ialltoallw_c(const void* sbuf, const MPI_Count scounts[], const MPI_Aint sdispls[], const MPI_Datatype stypes[],
                   void* rbuf, const MPI_Count rcounts[], const MPI_Aint rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm,
                   MPI_Request* request) {
  return nonblocking("ialltoallw", comm, -1, mean_bytes_w(rcounts, rtypes), request, [&] {
    return PMPI_Ialltoallw_c(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm, request);
  });
}

int MPI_Iscan_c(const void* sbuf, void* rbuf, MPI_Count count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
              MPI_Request* request) {
  return nonblocking("iscan", comm, -1, bytes_of(count, type), request,
                     [&] { return PMPI_Iscan_c(sbuf, rbuf, count, type, op, comm, request); });
}

int MPI_Iexscan_c(const void* sbuf, void* rbuf, MPI_Count count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                MPI_Request* request) {
  return nonblocking("iexscan", comm, -1, bytes_of(count, type), request,
                     [&] { return PMPI_Iexscan_c(sbuf, rbuf, count, type, op, comm, request); });
}

int MPI_Ireduce_scatter_c(const void* sbuf, void* rbuf, const MPI_Count rcounts[], MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                        MPI_Request* request) {
  return nonblocking("ireduce_scatter", comm, -1, mean_bytes(rcounts, type), request,
                     [&] { return PMPI_Ireduce_scatter_c(sbuf, rbuf, rcounts, type, op, comm, request); });
}

int MPI_Ireduce_scatter_block_c(const void* sbuf, void* rbuf, MPI_Count rcount, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                              MPI_Request* request) {
  return nonblocking("ireduce_scatter_block", comm, -1, bytes_of(rcount, type), request,
                     [&] { return PMPI_Ireduce_scatter_block_c(sbuf, rbuf, rcount, type, op, comm, request); });
}

#endif  // MPI_VERSION >= 4

}  // extern "C"
