#pragma once
// Turns the events of one OTF2 location (an MPI rank's thread that calls MPI) into a rank of a
// trace: each outermost MPI region's Enter and Leave give the call's state, the MPI events
// inside it give its send, receive, request and collective records (at the call's begin, as
// native traces keep them), and the time between calls is compute, unless the archive states
// its COMPUTE/WAIT/IDLE regions itself (augur's exporter does). Events that cannot be placed
// are counted by what was wrong with them.
#include <otf2/otf2.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "trace/otf2_definitions.hpp"
#include "trace/otf2_regions.hpp"
#include "trace/trace.hpp"

namespace augur::trace {

struct Otf2ArchiveContext {
  const Otf2Definitions& defs;
  const std::unordered_map<OTF2_RegionRef, RegionMeaning>& regions;
  bool explicit_states = false;  // the archive has COMPUTE/WAIT/IDLE regions: gaps stay gaps
  bool call_sizes = false;       // collective sizes are the call's (augur's exporter), not Score-P's totals
};

class Otf2RankBuilder {
 public:
  Otf2RankBuilder(const Otf2ArchiveContext& archive, Trace& trace, int rank);
  // Registers the callbacks whose userData is an Otf2RankBuilder.
  static void set_callbacks(OTF2_EvtReaderCallbacks* callbacks);
  // Closes what the location left open; call after its last event.
  void finish();
  std::uint64_t events() const { return events_; }
  // Events that could not be placed, by what was wrong: "MpiIrecv without its MpiIrecvRequest".
  const std::map<std::string, std::uint64_t>& unmatched() const { return unmatched_; }

  // The callbacks' bodies, public for the C callbacks to reach.
  void enter(OTF2_TimeStamp ts, OTF2_AttributeList* attributes, OTF2_RegionRef region);
  void leave(OTF2_TimeStamp ts, OTF2_AttributeList* attributes, OTF2_RegionRef region);
  void send(OTF2_TimeStamp ts, std::uint32_t receiver, OTF2_CommRef comm, std::uint32_t tag, std::uint64_t bytes,
            std::optional<std::uint64_t> request);
  void send_complete(std::uint64_t request);
  void receive_request(std::uint64_t request);
  void receive(OTF2_TimeStamp ts, OTF2_AttributeList* attributes, std::uint32_t sender, OTF2_CommRef comm,
               std::uint32_t tag, std::uint64_t bytes, std::optional<std::uint64_t> request);
  void cancelled(std::uint64_t request);
  void collective_begin() { collective_open_ = true; }
  void collective_end(OTF2_TimeStamp ts, OTF2_AttributeList* attributes, OTF2_CollectiveOp op, OTF2_CommRef comm,
                      std::uint32_t root, std::uint64_t sent, std::uint64_t received);
  void count_event(OTF2_TimeStamp ts);

 private:
  struct Open {
    double begin;
    OTF2_RegionRef region;
    std::size_t depth;  // the region stack's size when it was entered
    State state;
  };
  struct Pending {
    std::uint32_t id;
    bool receive;
    double post;
    std::size_t request_index;
  };

  double seconds(OTF2_TimeStamp ts, OTF2_AttributeList* attributes) const;
  std::uint8_t wildcard(OTF2_AttributeList* attributes) const;
  // The time a record of the current call carries: the call's begin, or the event's own time
  // outside any call (counted as unmatched).
  std::optional<double> call_time(std::string_view event);
  std::optional<std::int32_t> world(OTF2_CommRef comm, std::uint32_t rank, std::string_view event);
  std::int32_t comm_id(OTF2_CommRef comm) const;
  void note(std::string what) { ++unmatched_[std::move(what)]; }
  void compute_until(double t);

  // Whether the call open is one that creates a communicator (MPI_Comm_dup, _split, _create).
  bool creates_communicator() const;

  const Otf2ArchiveContext& archive_;
  const std::vector<std::string>& names_;
  RankTrace& rank_;
  std::vector<OTF2_RegionRef> stack_;
  std::optional<Open> open_;
  std::unordered_map<std::uint64_t, Pending> pending_;
  std::uint32_t next_request_ = 0;
  bool collective_open_ = false;
  std::optional<double> last_end_;  // where compute resumes: the last call's end
  double last_time_ = 0;
  std::uint64_t events_ = 0;
  std::map<std::string, std::uint64_t> unmatched_;
};

}  // namespace augur::trace
