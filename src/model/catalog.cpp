#include "model/catalog.hpp"

#include <array>

namespace augur::model {
namespace {

using C = OperationClass;
constexpr auto kCatalog = std::to_array<OperationInfo>({
    {"send", C::point_to_point, "sender's time in MPI_Send"},
    {"ssend", C::point_to_point, "sender's time in MPI_Ssend"},
    {"rsend", C::point_to_point, "sender's time in MPI_Rsend"},
    {"bsend", C::point_to_point, "sender's time in MPI_Bsend"},
    {"isend1", C::point_to_point, "time to post MPI_Isend"},
    {"isend2", C::point_to_point, "time in the MPI_Wait that completes an MPI_Isend"},
    {"isendoverlap", C::point_to_point, "sender's time not hidden behind computation between Isend and Wait"},
    {"recv", C::point_to_point, "receiver's time in MPI_Recv when the send starts at the same moment"},
    {"recvmin", C::point_to_point, "receiver's time in MPI_Recv when the message has already arrived"},
    {"irecv1", C::point_to_point, "time to post MPI_Irecv"},
    {"irecv2", C::point_to_point, "time in the MPI_Wait that completes an MPI_Irecv"},
    {"irecvoverlap", C::point_to_point, "receiver's time not hidden behind computation between Irecv and Wait"},
    {"sendrecv", C::point_to_point, "time of MPI_Sendrecv between two partners"},
    {"pingpong", C::point_to_point, "half the round trip of a ping-pong"},
    {"exchange", C::point_to_point, "time of a simultaneous two-way exchange between two partners"},
    {"allsend", C::point_to_point, "send time when half the processes send to the other half (congested send)"},
    {"transit", C::point_to_point, "time from the start of a send to the end of the matching receive"},
    {"stream", C::point_to_point,
     "time per message when each of p/2 senders streams a window of MPI_Isend to its own partner (p = 2: one pair; OMB's osu_bw and osu_mbw_mr, IMB's Uniband)"},
    {"bistream", C::point_to_point,
     "time per message each way when the two processes of each of p/2 pairs stream windows of MPI_Isend to each other at once (OMB's osu_bibw, IMB's Biband)"},
    {"ringexchange", C::point_to_point,
     "time of one step in which each of p processes in a ring sends a message to and receives one from each of its two neighbours (MPI_Isend and MPI_Irecv to both, MPI_Waitall; IMB's Exchange)"},
    {"onetomany", C::collective, "sender's time to send to p destinations"},
    {"manytoone", C::collective, "receiver's time to receive from p sources"},
    {"manytomany", C::collective, "time of an all-to-all exchange among p participants"},
    {"barrier", C::barrier, "first start to last finish of MPI_Barrier"},
    {"bcast", C::collective, "first start to last finish of MPI_Bcast"},
    {"reduce", C::collective, "first start to last finish of MPI_Reduce (MPI_SUM)"},
    {"allreduce", C::collective, "first start to last finish of MPI_Allreduce (MPI_SUM)"},
    {"gather", C::collective, "first start to last finish of MPI_Gather"},
    {"gatherv", C::collective, "first start to last finish of MPI_Gatherv"},
    {"scatter", C::collective, "first start to last finish of MPI_Scatter"},
    {"scatterv", C::collective, "first start to last finish of MPI_Scatterv"},
    {"allgather", C::collective, "first start to last finish of MPI_Allgather"},
    {"allgatherv", C::collective, "first start to last finish of MPI_Allgatherv"},
    {"alltoall", C::collective, "first start to last finish of MPI_Alltoall"},
    {"alltoallv", C::collective, "first start to last finish of MPI_Alltoallv"},
    {"alltoallw", C::collective, "first start to last finish of MPI_Alltoallw"},
    {"reduce_scatter", C::collective, "first start to last finish of MPI_Reduce_scatter"},
    {"reduce_scatter_block", C::collective, "first start to last finish of MPI_Reduce_scatter_block"},
    {"scan", C::collective, "first start to last finish of MPI_Scan"},
    {"exscan", C::collective, "first start to last finish of MPI_Exscan"},
    {"ibarrier", C::barrier, "first start to last finish of MPI_Ibarrier and its wait"},
    {"ibcast", C::collective, "first start to last finish of MPI_Ibcast and its wait"},
    {"ireduce", C::collective, "first start to last finish of MPI_Ireduce and its wait"},
    {"iallreduce", C::collective, "first start to last finish of MPI_Iallreduce and its wait"},
    {"igather", C::collective, "first start to last finish of MPI_Igather and its wait"},
    {"igatherv", C::collective, "first start to last finish of MPI_Igatherv and its wait"},
    {"iscatter", C::collective, "first start to last finish of MPI_Iscatter and its wait"},
    {"iscatterv", C::collective, "first start to last finish of MPI_Iscatterv and its wait"},
    {"iallgather", C::collective, "first start to last finish of MPI_Iallgather and its wait"},
    {"iallgatherv", C::collective, "first start to last finish of MPI_Iallgatherv and its wait"},
    {"ialltoall", C::collective, "first start to last finish of MPI_Ialltoall and its wait"},
    {"ialltoallv", C::collective, "first start to last finish of MPI_Ialltoallv and its wait"},
    {"ialltoallw", C::collective, "first start to last finish of MPI_Ialltoallw and its wait"},
    {"ireduce_scatter", C::collective, "first start to last finish of MPI_Ireduce_scatter and its wait"},
    {"ireduce_scatter_block", C::collective, "first start to last finish of MPI_Ireduce_scatter_block and its wait"},
    {"iscan", C::collective, "first start to last finish of MPI_Iscan and its wait"},
    {"iexscan", C::collective, "first start to last finish of MPI_Iexscan and its wait"},
    {"comm_dup", C::collective, "first start to last finish of MPI_Comm_dup"},
    {"comm_split", C::collective, "first start to last finish of MPI_Comm_split"},
    {"comm_create", C::collective, "first start to last finish of MPI_Comm_create"},
    {"comm_free", C::local, "time of MPI_Comm_free"},
    {"put", C::point_to_point, "origin's time of MPI_Win_lock, MPI_Put and MPI_Win_unlock (a passive-target epoch of one put)"},
    {"win_fence", C::collective, "first start to last finish of MPI_Put (of at least 1 byte) to the next rank and the MPI_Win_fence that completes it"},
    {"test", C::local, "time of an MPI_Test that finds its request still pending (one poll)"},
    {"iprobe", C::local, "time of an MPI_Iprobe that finds no message (one poll)"},
    // Per-role times of the rooted collectives (augur bench measures them beside the whole):
    // a bcast's root may leave long before its last receiver, a gather's senders before the root.
    {"bcast_root", C::collective, "the root's own time in MPI_Bcast"},
    {"bcast_others", C::collective, "the slowest non-root's time in MPI_Bcast"},
    {"reduce_root", C::collective, "the root's own time in MPI_Reduce"},
    {"reduce_others", C::collective, "the slowest non-root's time in MPI_Reduce"},
    {"gather_root", C::collective, "the root's own time in MPI_Gather"},
    {"gather_others", C::collective, "the slowest non-root's time in MPI_Gather"},
    {"gatherv_root", C::collective, "the root's own time in MPI_Gatherv"},
    {"gatherv_others", C::collective, "the slowest non-root's time in MPI_Gatherv"},
    {"scatter_root", C::collective, "the root's own time in MPI_Scatter"},
    {"scatter_others", C::collective, "the slowest non-root's time in MPI_Scatter"},
    {"scatterv_root", C::collective, "the root's own time in MPI_Scatterv"},
    {"scatterv_others", C::collective, "the slowest non-root's time in MPI_Scatterv"},
});

}  // namespace

std::span<const OperationInfo> operation_catalog() { return kCatalog; }

const OperationInfo* find_operation_info(std::string_view name) {
  for (const auto& info : kCatalog)
    if (info.name == name) return &info;
  return nullptr;
}

std::string_view to_string(OperationClass c) {
  switch (c) {
    case OperationClass::point_to_point: return "point-to-point";
    case OperationClass::collective: return "collective";
    case OperationClass::barrier: return "barrier";
    case OperationClass::local: return "local";
  }
  return "?";
}

}  // namespace augur::model
