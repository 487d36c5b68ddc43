#pragma once
// What each state of a trace waited for besides its own rank's previous state: the messages it
// completed (paired by MPI's non-overtaking order, trace/messages.hpp) and the collective it took
// part in. The critical path is the longest path through these dependencies.
#include <cstdint>
#include <vector>

#include "trace/trace.hpp"

namespace augur::analyze {

inline constexpr std::uint32_t kNone = 0xFFFFFFFFu;

struct MessageDependency {
  std::int32_t src = 0, dst = 0;
  std::uint32_t send_state = 0;  // the sender's state holding the send
  std::uint32_t send_index = 0, recv_index = 0;  // into the ranks' send and receive records
  double send_time = 0, recv_end = 0, bytes = 0;
};

struct CollectiveInstance {
  std::vector<std::int32_t> ranks;     // the members that recorded it
  std::vector<std::uint32_t> states;   // each member's state holding it
  double last_arrival = 0;             // the latest begin over the members
  trace::NameIndex op = 0;
  std::int32_t root = -1;              // index into `ranks` of the root, or -1
  double bytes = 0;                    // the largest any member gave
};

struct Dependencies {
  std::vector<MessageDependency> messages;
  std::vector<CollectiveInstance> collectives;
  // Per rank, per state: the messages it completed, as a range of `incoming`.
  std::vector<std::vector<std::uint32_t>> first_incoming;  // states + 1 entries per rank
  std::vector<std::vector<std::uint32_t>> incoming;        // message ids
  std::vector<std::vector<std::uint32_t>> collective_of;   // instance id or kNone, per state
  std::vector<std::vector<double>> sent_bytes;             // bytes each state sent, matched or not
  std::uint64_t unmatched = 0;  // sends or receives without their other half
};

Dependencies find_dependencies(const trace::Trace& trace);

// The state of `rank` that holds time `t`: the last that begins at or before it (0 if none).
std::uint32_t state_at(const trace::RankTrace& rank, double t);
// The state of `rank` in which something ending at `t` ended: the first ending at or after it,
// past compute (a receive completes in a call).
std::uint32_t state_ending(const trace::RankTrace& rank, double t);

}  // namespace augur::analyze
