#include "trace/otf2_regions.hpp"

#include <algorithm>
#include <map>

namespace augur::trace {

namespace {

RegionMeaning meaning(const Otf2Region& r, Trace& trace, bool rename) {
  if (r.name == "COMPUTE") return {RegionUse::compute, 0};
  if (r.name == "WAIT") return {RegionUse::wait, 0};
  if (r.name == "IDLE") return {RegionUse::idle, 0};
  const bool mpi_name = r.name.size() > 4 && (r.name.starts_with("MPI_") || r.name.starts_with("mpi_"));
  if (r.paradigm == OTF2_PARADIGM_MPI || mpi_name) return {RegionUse::mpi, trace.intern(rename ? operation_name(r.name) : r.name)};
  // The exporter writes phases as user code regions; Score-P's user regions are phases too.
  if (r.role == OTF2_REGION_ROLE_CODE && r.paradigm == OTF2_PARADIGM_USER) return {RegionUse::phase, trace.intern(r.name)};
  return {};
}

}  // namespace

std::unordered_map<OTF2_RegionRef, RegionMeaning> region_meanings(const Otf2Definitions& defs, Trace& trace, bool rename) {
  std::unordered_map<OTF2_RegionRef, RegionMeaning> out;
  for (const auto& [ref, region] : defs.regions) out[ref] = meaning(region, trace, rename);
  return out;
}

std::uint64_t collective_call_size(OTF2_CollectiveOp op, std::uint64_t sent, std::uint64_t received,
                                   std::size_t comm_size) {
  const std::uint64_t p = std::max<std::size_t>(comm_size, 1);
  switch (op) {
    case OTF2_COLLECTIVE_OP_BCAST:
    case OTF2_COLLECTIVE_OP_SCATTER:
    case OTF2_COLLECTIVE_OP_SCATTERV: return received;
    case OTF2_COLLECTIVE_OP_REDUCE:
    case OTF2_COLLECTIVE_OP_GATHER:
    case OTF2_COLLECTIVE_OP_GATHERV:
    case OTF2_COLLECTIVE_OP_SCAN:
    case OTF2_COLLECTIVE_OP_EXSCAN: return sent;
    case OTF2_COLLECTIVE_OP_ALLREDUCE:
    case OTF2_COLLECTIVE_OP_ALLGATHER:
    case OTF2_COLLECTIVE_OP_ALLGATHERV:
    case OTF2_COLLECTIVE_OP_ALLTOALL:
    case OTF2_COLLECTIVE_OP_ALLTOALLV:
    case OTF2_COLLECTIVE_OP_ALLTOALLW:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK: return sent / p;
    default: return 0;
  }
}

}  // namespace augur::trace
