// LogGOPS (Network::handles_on_arrival): a rank's sequence of MPI calls runs as LogGOPSim runs its
// GOAL translation (src/sim/program/goal_writer.cpp: each call a vertex requiring the one before,
// irequiring it after a non-blocking call; a wait a `calc 0` requiring its requests), so both
// inputs give one answer (tests/unit/test_sim_loggops_equivalence.cpp):
//   - an operation is queued, as an event, when the one before it ends (has started, after a
//     non-blocking call), for then or when the processor is free, whichever is later;
//   - when its event comes, an operation that needs the processor (a computation, a send, a
//     wait's own step) and finds it busy, or a send whose gap has not passed, goes back in the
//     queue in its place for when they are free; a receive is posted at once;
//   - a message that reaches a busy processor, or comes within the receive gap of the previous
//     one, goes back in the queue likewise; once taken it occupies the processor;
//   - events of one time go in the order they were queued, whatever their rank.
// So a rank waiting for its gap, or blocked in a call, leaves its processor to the messages that
// reach it, and a pipeline's stages overlap.
#include <algorithm>

#include "sim/kernel/engine.hpp"

namespace augur::sim {

// Every resume event carries its rank; on LogGOPS all events share one key, so ties go by
// the order queued.
void Engine::push_resume(double time, int rank) {
  queue_.push(time, handles_ ? 0 : static_cast<std::uint32_t>(rank), EventType::resume, static_cast<std::uint32_t>(rank));
}

// When the processor (and for a send its gap) lets `op` start; receives need neither.
double Engine::busy_until(const RankState& rs, const Op& op) const {
  switch (op.kind) {
    case OpKind::send:
    case OpKind::isend: return op.peer == kNoPeer ? 0 : std::max(rs.cpu_free, rs.nic_free);
    case OpKind::compute:
    case OpKind::sleep:
    case OpKind::until: return rs.cpu_free;
    case OpKind::wait: return rs.wait_queued ? rs.cpu_free : 0;
    case OpKind::sendrecv: return rs.send_deferred ? std::max(rs.cpu_free, rs.nic_free) : 0;
    default: return 0;
  }
}

// The operation before ended (or started) at `done`: the next is queued.
void Engine::release(int rank, double done) {
  auto& rs = ranks_[rank];
  rs.done = std::max(rs.done, done);
  rs.now = std::max(done, rs.cpu_free);
  rs.released = true;
  push_resume(rs.now, rank);
}

// The running operation must wait until `time`: its event goes back in its place.
void Engine::requeue(int rank, double time) {
  if (!has_resume_) return push_resume(time, rank);
  queue_.push_again(resume_, time);
  has_resume_ = false;
}

// Whether the rank's queued operation is the next event; then it is taken and the rank goes on.
bool Engine::take_own_resume(int rank) {
  if (next_start_ < program_.nranks() || queue_.empty()) return false;
  const Event& top = queue_.top();
  if (top.type != EventType::resume || top.payload != static_cast<std::uint32_t>(rank)) return false;
  resume_ = queue_.pop();
  has_resume_ = true;
  ++events_;
  ranks_[rank].now = resume_.time;
  return true;
}

// A wait whose requests are all complete: its own step (GOAL's `calc 0`) is queued for when they
// and the processor are.
void Engine::queue_wait_step(int rank) {
  auto& rs = ranks_[rank];
  rs.wait_queued = true;
  rs.status = Status::ready;
  rs.now = std::max(rs.end, rs.cpu_free);
  if (rank == running_) return requeue(rank, rs.now);
  push_resume(rs.now, rank);
}

// The wait's step has the processor: the call ends now.
void Engine::end_wait_step(int rank) {
  auto& rs = ranks_[rank];
  rs.wait_queued = false;
  account(rank, n_wait, rs.begin, rs.now, rs.now - rs.begin, rs.bytes);
  advance(rank, rs.now);
}

// The receiver's processor takes the message when it is free and the gap since the previous
// incoming message has passed; else the message comes back then.
bool Engine::handle_arrival(const Event& e) {
  auto& m = messages_[e.payload];
  auto& rs = ranks_[m.dst];
  const double free = std::max(rs.cpu_free, rs.receive_free);
  if (free > e.time) {
    queue_.push_again(e, free);
    return false;
  }
  const Network& net = net_.between(m.src, m.dst);
  m.taken = e.time;
  m.handled = whole_picoseconds(e.time + net.arrival_overhead(m.bytes));
  rs.cpu_free = m.handled;
  rs.receive_free = whole_picoseconds(e.time + net.receive_gap(m.bytes));
  return true;
}

}  // namespace augur::sim
