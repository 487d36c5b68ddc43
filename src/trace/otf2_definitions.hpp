#pragma once
// The global definitions of an OTF2 archive that an import needs: the clock, the regions, which
// location is which MPI rank, and how each communicator's ranks map to MPI_COMM_WORLD.
#include <otf2/otf2.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace augur::trace {

// The attribute augur's exporter attaches to every event: its time in seconds as the native trace
// had it, so an export read back gives the same doubles rather than times rounded to the ticks.
inline constexpr char kExactTimeAttribute[] = "augur::seconds";
// The attribute of a receive that the program left open to any source (1) or tag (2).
inline constexpr char kWildcardAttribute[] = "augur::wildcard";
// The attribute of a call's Enter that made a request towards MPI_PROC_NULL: the request's id.
// OTF2 has no record for such a request (it moves no message), but the Wait that completes it
// still counts it, so a replay needs it.
inline constexpr char kNullRequestAttribute[] = "augur::null_request";

struct Otf2Region {
  std::string name;
  OTF2_RegionRole role = OTF2_REGION_ROLE_UNKNOWN;
  OTF2_Paradigm paradigm = OTF2_PARADIGM_UNKNOWN;
};

struct Otf2Location {
  OTF2_LocationRef id = 0;
  std::string name;
  OTF2_LocationGroupRef group = 0;
  std::uint64_t events = 0;
};

struct Otf2Rank {
  std::string name;             // the location group's (process) name
  OTF2_LocationRef location;    // the location whose events are read: the one calling MPI
  std::vector<OTF2_LocationRef> others;  // further threads of the process, left out
  std::uint64_t other_events = 0;
};

// A communicator: its ranks, in its own numbering, as ranks of MPI_COMM_WORLD, and the id the
// imported trace gives it (0 for MPI_COMM_WORLD).
struct Otf2Comm {
  std::vector<std::int32_t> world_ranks;
  std::int32_t id = 0;
};

struct Otf2Definitions {
  std::uint64_t resolution = 1, offset = 0;
  bool has_clock = false;
  std::map<OTF2_RegionRef, Otf2Region> regions;
  std::map<OTF2_LocationRef, Otf2Location> locations;
  std::vector<Otf2Rank> ranks;  // by world rank
  std::map<OTF2_CommRef, Otf2Comm> comms;
  std::string machine;  // the system tree's root of class "machine", as augur's exporter names the model
  std::optional<OTF2_AttributeRef> exact_time;  // kExactTimeAttribute, when defined as a double
  std::optional<OTF2_AttributeRef> wildcard;    // kWildcardAttribute, when defined as a uint8
  std::optional<OTF2_AttributeRef> null_request;  // kNullRequestAttribute, when defined as a uint64

  double seconds(OTF2_TimeStamp t) const {
    return t >= offset ? double(t - offset) / double(resolution) : -double(offset - t) / double(resolution);
  }
  // The rank of MPI_COMM_WORLD that `rank` of `comm` is, or nothing when the archive does not say.
  std::optional<std::int32_t> world_rank(OTF2_CommRef comm, std::uint32_t rank) const;
};

// Reads the global definitions through `reader`; throws std::runtime_error naming `anchor` when
// they cannot be read or define no MPI process.
Otf2Definitions read_otf2_definitions(OTF2_Reader* reader, const std::string& anchor);

}  // namespace augur::trace
