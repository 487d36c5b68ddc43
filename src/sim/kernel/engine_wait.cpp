// The engine's waits (sim/kernel/engine.hpp): a wait completing requests, and a request taken
// off a rank's list counted when it completes.
#include <algorithm>

#include "sim/kernel/engine.hpp"

namespace augur::sim {

// Completes the `tag2` oldest requests (all when 0), or those of a wait set, as the reverse
// profiler's settle_completed: the call ends at the latest completion and all of it counts as
// waiting.
bool Engine::wait(int rank, const Op& op) {
  auto& rs = ranks_[rank];
  rs.begin = rs.end = rs.now;
  rs.bytes = 0;
  rs.pending = 0;
  const auto* set = op.peer >= 0 ? &program_.wait_set(op.peer) : nullptr;
  const std::uint32_t wanted = set ? static_cast<std::uint32_t>(set->size())
                               : op.tag2 > 0 ? static_cast<std::uint32_t>(op.tag2) : ~0u;
  std::uint32_t prev = kNil, id = rs.requests_head, position = 0, taken = 0, next_wanted = 0;
  for (; id != kNil && taken < wanted; ++position) {
    const auto next = requests_[id].next;
    if (set && (*set)[next_wanted] != position) {
      prev = id;
      id = next;
      continue;
    }
    ++next_wanted;
    ++taken;
    if (prev == kNil) rs.requests_head = next;
    else requests_[prev].next = next;
    if (rs.requests_tail == id) rs.requests_tail = prev;
    take_awaited(rs, id);
    id = next;
  }
  if (rs.pending > 0) {
    rs.status = Status::blocked;
    return false;
  }
  if (handles_ && std::max(rs.end, rs.cpu_free) > rs.now) {  // its own step waits for them
    queue_wait_step(rank);
    return false;
  }
  account(rank, n_wait, rs.begin, rs.end, rs.end - rs.begin, rs.bytes);
  advance(rank, rs.end);
  return true;
}

// A request a wait has taken off the rank's list: counted now if done, else when it completes.
void Engine::take_awaited(RankState& rs, std::uint32_t id) {
  auto& r = requests_[id];
  if (r.done) {
    settle_receive(r);
    note_received(rs, r);
    rs.end = std::max(rs.end, r.end);
    rs.bytes += r.bytes;
    free_request(id);
  } else {
    r.awaited = true;
    ++rs.pending;
  }
}

// A completed request the program has seen complete: a receive's source and tag are its latest.
void Engine::note_received(RankState& rs, const Request& r) {
  if (r.receive && has_peer(r.peer)) rs.last_source = r.peer, rs.last_tag = r.tag;
}

}  // namespace augur::sim
