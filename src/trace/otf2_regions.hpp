#pragma once
// What each region of an OTF2 archive means to a trace: an MPI call (named as native traces
// name operations: MPI_Isend → isend1), one of the exporter's COMPUTE/WAIT/IDLE states, a user
// phase, or nothing the import keeps. Also the per-call size of a collective from the bytes a
// writer counted.
#include <otf2/otf2.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "trace/operation_name.hpp"
#include "trace/otf2_definitions.hpp"
#include "trace/trace.hpp"

namespace augur::trace {

enum class RegionUse : std::uint8_t { mpi, compute, wait, idle, phase, other };

struct RegionMeaning {
  RegionUse use = RegionUse::other;
  NameIndex name = 0;  // for mpi and phase
};

// `rename`: MPI regions get operation_name()s (Score-P); augur's archives keep their names.
std::unordered_map<OTF2_RegionRef, RegionMeaning> region_meanings(const Otf2Definitions& defs, Trace& trace, bool rename);

// The size a native trace gives a collective call (the buffer's bytes) from the bytes sent and
// received that Score-P counts over the whole communicator: a broadcast's root "sends" p blocks.
std::uint64_t collective_call_size(OTF2_CollectiveOp op, std::uint64_t sent, std::uint64_t received,
                                   std::size_t comm_size);

}  // namespace augur::trace
