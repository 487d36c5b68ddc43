#include "sim/kernel/engine.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "sim/program/message_ops.hpp"
#include "timing/steps.hpp"

namespace augur::sim {
namespace {

// The fixed names are the message table's model names (isend1 …), in its order.
static_assert(kMessageOps.size() == kFixedNames);
constexpr auto kNames = [] {
  std::array<std::string_view, kFixedNames> names{};
  for (std::size_t i = 0; i < names.size(); ++i) names[i] = kMessageOps[i].model_name;
  return names;
}();
constexpr bool sends_in_mode_order() {
  for (int m = 0; m < 4; ++m) {
    const auto& row = kMessageOps[n_send + m];
    if (row.kind != OpKind::send || static_cast<int>(row.mode) != m) return false;
  }
  return true;
}
static_assert(sends_in_mode_order() && kMessageOps[n_recv].kind == OpKind::recv &&
              kMessageOps[n_isend].kind == OpKind::isend && kMessageOps[n_irecv].kind == OpKind::irecv &&
              kMessageOps[n_wait].kind == OpKind::wait && kMessageOps[n_sendrecv].kind == OpKind::sendrecv);

Name send_name(timing::SendMode mode) { return static_cast<Name>(n_send + static_cast<int>(mode)); }

// LogGOPS: operations that keep the processor busy to their end; the others wait, or end when
// their messages have been handled, which the processor's state already holds.
bool occupies_processor(OpKind kind) {
  return kind == OpKind::compute || kind == OpKind::send || kind == OpKind::isend || kind == OpKind::irecv ||
         kind == OpKind::sleep || kind == OpKind::until;
}

bool has_peers(OpKind kind) {
  return kind != OpKind::compute && kind != OpKind::wait && kind != OpKind::collective && kind != OpKind::sleep &&
         kind != OpKind::until && kind != OpKind::jump;
}

// Whether the operation is a vertex of its GOAL translation (goal_writer.cpp): a message to no
// rank and a jump are not.
bool has_vertex(const Op& op) {
  if (op.kind == OpKind::jump) return false;
  if (op.kind == OpKind::sendrecv) return has_peer(op.peer) || has_peer(op.peer2);
  return !has_peers(op.kind) || has_peer(op.peer);
}

}  // namespace

Engine::Engine(const Program& program, const Network& network, const Options& options, TraceSink* trace)
    : program_(program), net_(network), options_(options), trace_(trace), transfers_(network.transfers()),
      crossing_(network.crossing_rules()), handles_(network.handles_on_arrival()) {
  const int n = program.nranks();
  if (n > EventQueue::kMaxRanks) throw std::invalid_argument(fmt::format("at most {} ranks", EventQueue::kMaxRanks));
  ranks_.resize(n);
  if (options_.compute_delay) computes_.assign(n, 0);
  totals_.resize(n);
  op_totals_.resize(kFixedNames + program.names().size());
  collectives_.resize(program.comms().size());
  // Every rank has at most one event of its own and a few messages in flight.
  queue_.reserve(std::min<std::size_t>(4 * std::size_t(n) + 1024, std::size_t(1) << 26));
  resolve_algorithms();
}

std::string_view Engine::name_of(std::uint16_t name) const {
  return name < kFixedNames ? kNames[name] : std::string_view(program_.names()[name - kFixedNames]);
}

bool Engine::runs_next(double time, int rank) const {
  if (handles_) return false;  // LogGOPS: every operation is queued (loggops_order.cpp)
  const bool before_starts = next_start_ >= program_.nranks() || (time == 0 && rank < next_start_);
  return before_starts && queue_.would_run_first(time, static_cast<std::uint32_t>(rank));
}

Result Engine::run() {
  const int n = program_.nranks();
  // On LogGOPS every rank's first operation is queued before anything else happens.
  auto start_comes_first = [&] {
    if (next_start_ >= n) return false;
    if (handles_) return true;
    if (queue_.empty()) return true;
    const Event& top = queue_.top();
    return 0 < top.time || (0 == top.time && std::uint32_t(next_start_) <= top.rank());
  };
  for (;;) {
    if (start_comes_first()) {
      ++events_;
      execute(next_start_++);
    } else if (!queue_.empty()) {
      const Event e = queue_.pop();
      ++events_;
      if (e.type == EventType::deliver) deliver(e);
      else if (e.type == EventType::network) transfers_end(e.time);
      else if (e.type == EventType::settle) settle_transfers(e.time);
      else execute(static_cast<int>(e.payload), &e);
      if (options_.progress && events_ % options_.progress_every == 0)
        options_.progress({events_, e.time, finished_, n, operations_});
    } else {
      break;
    }
  }
  if (finished_ < n) report_deadlock();
  Result result;
  result.ranks = totals_;
  for (const auto& r : totals_) result.predicted = std::max(result.predicted, r.finish);
  for (std::size_t i = 0; i < op_totals_.size(); ++i)
    if (op_totals_[i].count > 0) result.operations[std::string(name_of(static_cast<std::uint16_t>(i)))] = op_totals_[i];
  result.events = events_;
  result.operations_run = operations_;
  result.messages = message_count_;
  result.replayed_wildcards = wildcards_;
  result.changed_matches = changed_matches_;
  warn_unreceived(result);
  return result;
}

void Engine::execute(int rank, const Event* resumed) {
  auto& rs = ranks_[rank];
  has_resume_ = handles_ && resumed;
  if (has_resume_) {
    resume_ = *resumed;
    rs.now = resumed->time;
  }
  running_ = rank;
  Op op;
  for (;;) {
    if (!current_op(rank, op)) {
      rs.status = Status::done;
      totals_[rank].finish = handles_ ? rs.done : rs.now;
      ++finished_;
      break;
    }
    if (handles_) {  // LogGOPS: an operation that needs the busy processor (or gap) waits in its place
      const double free = busy_until(rs, op);
      if (free > rs.now) {
        requeue(rank, free);
        break;
      }
      rs.released = false;
    }
    ++operations_;
    if (!perform(rank, op)) {
      rs.call = op;
      break;
    }
    if (handles_) {
      if (occupies_processor(op.kind)) rs.cpu_free = std::max(rs.cpu_free, rs.now);
      if (!rs.released) {
        if (!has_vertex(op)) continue;  // no GOAL vertex: nothing to queue
        release(rank, rs.now);
      }
      if (!take_own_resume(rank)) break;
      continue;
    }
    // Nothing queued comes before this rank's next operation: go on without an event.
    if (!queue_.would_run_first(rs.now, static_cast<std::uint32_t>(rank))) {
      push_resume(rs.now, rank);
      break;
    }
  }
  has_resume_ = false;
  running_ = -1;
}

bool Engine::current_op(int rank, Op& op) {
  auto& rs = ranks_[rank];
  for (;;) {
    if (!program_.fetch(rank, rs.pc, op)) return false;
    if (op.peer == kLastSource && has_peers(op.kind)) op.peer = rs.last_source;
    if (op.kind != OpKind::collective || algorithms_.empty() || !algorithms_[op.name]) return true;
    if (rs.step == 0) {
      rs.step = 1;
      rs.collective_begin = rs.now;
      rs.collective_waiting = 0;
    }
    // The step is written straight into `op`: copying it from a fresh temporary stalled.
    const Op collective = op;
    if (expanded_step(rank, collective, rs.step - 1, op)) return true;
    end_expansion(rank, collective);
  }
}

bool Engine::perform(int rank, const Op& op) {
  for (std::int32_t peer : {op.peer, op.peer2})
    if (has_peers(op.kind) && (peer >= program_.nranks() || peer < kNoPeer))
      throw std::invalid_argument(fmt::format("rank {}: peer {} is outside the {} ranks", rank, peer, program_.nranks()));
  switch (op.kind) {
    case OpKind::compute: compute(rank, op); return true;
    case OpKind::send: return blocking_send(rank, op);
    case OpKind::isend: isend(rank, op); return true;
    case OpKind::recv: return blocking_recv(rank, op);
    case OpKind::irecv: irecv(rank, op); return true;
    case OpKind::sendrecv: return sendrecv(rank, op);
    case OpKind::wait:
      if (op.peer >= 0 && static_cast<std::size_t>(op.peer) >= program_.wait_set_count())
        throw std::invalid_argument(fmt::format("rank {}: wait set {} does not exist", rank, op.peer));
      if (handles_ && ranks_[rank].wait_queued) {
        end_wait_step(rank);
        return true;
      }
      return wait(rank, op);
    case OpKind::collective: return collective(rank, op);
    case OpKind::sleep: advance(rank, ranks_[rank].now + std::max(0.0, op.value)); return true;
    case OpKind::until: advance(rank, std::max(ranks_[rank].now, op.value)); return true;
    case OpKind::jump: ranks_[rank].pc = static_cast<std::uint32_t>(op.value); return true;
  }
  return true;
}

void Engine::advance(int rank, double end) {
  auto& rs = ranks_[rank];
  rs.now = end;
  if (rs.step) ++rs.step;
  else ++rs.pc;
}

void Engine::account(int rank, std::uint16_t name, double begin, double end, double waiting, double bytes) {
  auto& rs = ranks_[rank];
  const double span = std::max(0.0, end - begin);
  const double waited = std::clamp(waiting, 0.0, span);
  if (rs.step) {  // inside an expanded collective, which is accounted as one call
    rs.collective_waiting += waited;
    return;
  }
  auto& t = op_totals_[name];
  ++t.count;
  t.bytes += bytes;
  t.seconds += span;
  t.waiting += waited;
  totals_[rank].mpi += span;
  totals_[rank].waiting += waited;
  if (trace_) trace_->state(rank, begin, begin + span, trace::StateKind::mpi, name_of(name));
}

void Engine::compute(int rank, const Op& op) {
  auto& rs = ranks_[rank];
  double seconds = std::max(0.0, op.value) / net_.compute_speed(rank) * options_.compute_scale;
  if (options_.compute_delay) seconds += std::max(0.0, options_.compute_delay(rank, computes_[rank]++));
  if (seconds > 0) {
    totals_[rank].compute += seconds;
    if (trace_) trace_->state(rank, rs.now, rs.now + seconds, trace::StateKind::compute, {});
  }
  advance(rank, handles_ ? whole_picoseconds(rs.now + seconds) : rs.now + seconds);
}

// A blocking send: eager ones return after the sender's busy time; one that waits for its
// receiver blocks until the receive is posted (p2p.cpp's end_send with a receipt).
bool Engine::blocking_send(int rank, const Op& op) {
  auto& rs = ranks_[rank];
  const double start = rs.now;
  const auto name = send_name(op.mode);
  if (!has_peer(op.peer)) {
    account(rank, name, start, start, 0, op.value);
    advance(rank, start);
    return true;
  }
  const Network& net = net_.between(rank, op.peer);
  const bool rendezvous = net.waits_for_receiver(op.mode, op.value);
  const double plain = net.send_end(rs.nic_free, op.mode, start, op.value);
  const auto message = send_message(rank, op, rendezvous);
  if (!rendezvous) {
    account(rank, name, start, plain, 0, op.value);
    advance(rank, plain);
    return true;
  }
  if (handles_) rs.cpu_free = std::max(rs.cpu_free, plain);  // its overhead; then it waits
  const auto request = new_request(rank, false, op);
  requests_[request].halves = plain;
  requests_[request].awaited = true;
  messages_[message].sender_request = request;
  rs.begin = rs.end = rs.halves = start;
  rs.bytes = 0;
  rs.pending = 1;
  rs.status = Status::blocked;
  return false;
}

void Engine::isend(int rank, const Op& op) {
  auto& rs = ranks_[rank];
  const double start = rs.now;
  const auto request = new_request(rank, false, op);
  enqueue_request(rs, request);
  if (!has_peer(op.peer)) {  // MPI returns at once for MPI_PROC_NULL: no message, no cost
    requests_[request].done = true;
    requests_[request].end = start;
    requests_[request].bytes = 0;
    account(rank, n_isend, start, start, 0, 0);
    advance(rank, start);
    return;
  }
  if (handles_) release(rank, start);  // the next operation irequires it: queued as it starts
  const Network& net = net_.between(rank, op.peer);
  const bool rendezvous = net.waits_for_receiver(op.mode, op.value);
  const auto times = net.isend(rs.nic_free, op.mode, start, op.value);
  const auto message = send_message(rank, op, rendezvous);
  auto& r = requests_[request];
  if (rendezvous) {
    r.halves = times.completes;
    messages_[message].sender_request = request;
  } else {
    r.done = true;
    r.end = times.completes;
    if (handles_) rs.done = std::max(rs.done, r.end);
  }
  account(rank, n_isend, start, times.returns, 0, 0);
  if (handles_) rs.cpu_free = std::max(rs.cpu_free, times.returns);
  advance(rank, handles_ ? start : times.returns);
}

bool Engine::blocking_recv(int rank, const Op& op) {
  auto& rs = ranks_[rank];
  if (!has_peer(op.peer)) {
    account(rank, n_recv, rs.now, rs.now, 0, 0);
    advance(rank, rs.now);
    return true;
  }
  const auto request = new_request(rank, true, op);
  requests_[request].awaited = true;
  rs.begin = rs.end = rs.now;
  rs.bytes = rs.halves = 0;
  rs.pending = 1;
  rs.status = Status::blocked;
  post_receive(request);  // a message already there completes it, and the call, at once
  return rs.status != Status::blocked;
}

void Engine::irecv(int rank, const Op& op) {
  auto& rs = ranks_[rank];
  const auto request = new_request(rank, true, op);
  enqueue_request(rs, request);
  if (!has_peer(op.peer)) {
    requests_[request].done = true;
    requests_[request].end = rs.now;
    account(rank, n_irecv, rs.now, rs.now, 0, 0);
    advance(rank, rs.now);
    return;
  }
  if (handles_) release(rank, rs.now);  // the next operation irequires it: queued as it is posted
  post_receive(request);
  const double end = rs.now + net_.between(op.peer, rank).irecv_post(op.value);
  account(rank, n_irecv, rs.now, end, 0, 0);
  advance(rank, end);
}

// Both halves at once (wrap_p2p.cpp's exchange): the send never waits for its partner. On LogGOPS
// the send half waits for the processor and the gap in its place, the receive half is posted at
// once, as the call's two GOAL vertices.
bool Engine::sendrecv(int rank, const Op& op) {
  auto& rs = ranks_[rank];
  if (rs.send_deferred) return deferred_send_half(rank, op);
  rs.begin = rs.end = rs.now;
  rs.bytes = rs.halves = 0;
  rs.send_end = rs.now;
  rs.pending = 1;
  rs.status = Status::blocked;
  const bool deferred = handles_ && has_peer(op.peer) && std::max(rs.cpu_free, rs.nic_free) > rs.now;
  if (has_peer(op.peer) && !deferred) send_half(rank, op);
  if (deferred) {
    rs.send_deferred = true;
    ++rs.pending;
  }
  if (!has_peer(op.peer2)) {
    if (--rs.pending == 0) finish_call(rank);  // no receive half: the send half's end is the call's
  } else {
    Op receive = op;
    receive.peer = op.peer2;
    receive.tag = op.tag2;
    const auto request = new_request(rank, true, receive);
    requests_[request].awaited = true;
    post_receive(request);
  }
  if (deferred) requeue(rank, std::max(rs.cpu_free, rs.nic_free));
  return rs.status != Status::blocked;
}

// The send half never waits for the receiver, whatever op.mode says, except on LogGOPS, where it is
// the GOAL translation's send: above S it is done when its receive takes the message.
void Engine::send_half(int rank, const Op& op) {
  auto& rs = ranks_[rank];
  const Network& net = net_.between(rank, op.peer);
  rs.send_end = net.send_end(rs.nic_free, timing::SendMode::standard, rs.now, op.value);
  const bool rendezvous = handles_ && net.waits_for_receiver(timing::SendMode::standard, op.value);
  if (handles_) rs.cpu_free = std::max(rs.cpu_free, rs.send_end);
  const auto message = send_message(rank, op, rendezvous);
  if (!rendezvous) return;
  const auto request = new_request(rank, false, op);
  requests_[request].halves = rs.send_end;
  requests_[request].bytes = 0;  // the call counts its bytes
  requests_[request].awaited = true;
  messages_[message].sender_request = request;
  ++rs.pending;
}

// LogGOPS: the processor and the gap are free for the send half that waited.
bool Engine::deferred_send_half(int rank, const Op& op) {
  auto& rs = ranks_[rank];
  rs.send_deferred = false;
  send_half(rank, op);
  if (--rs.pending == 0) finish_call(rank);
  return rs.status != Status::blocked;
}

void Engine::finish_call(int rank) {
  auto& rs = ranks_[rank];
  // While perform() runs, the call is not yet kept: it completed before blocking.
  Op op;
  if (running_ == rank) current_op(rank, op);
  else op = rs.call;
  double end = std::max(rs.end, rs.begin);
  switch (op.kind) {
    case OpKind::send: {
      const auto sent = timing::waited_send(rs.halves, end);
      end = sent.end;
      account(rank, send_name(op.mode), rs.begin, end, sent.waiting, op.value);
      break;
    }
    case OpKind::recv:
      account(rank, n_recv, rs.begin, end,
              timing::receive_waiting(net_.between(op.peer, rank), rs.begin, rs.halves, rs.bytes), rs.bytes);
      if ((op.flags & kExitOnTag) && rs.last_tag == op.tag2) {
        rs.pc = static_cast<std::uint32_t>(op.value);  // advance() below steps past the loop's end
        --rs.pc;
      }
      break;
    case OpKind::sendrecv: {
      const bool received = has_peer(op.peer2);
      // On LogGOPS rs.end holds a rendezvous send half's end too.
      // Priced at the send's level, as the reverse profiler prices it (its floor is the model's
      // sendrecv between the two ranks).
      end = timing::sendrecv_call_end(net_.between(rank, op.peer), rs.begin, rs.send_end,
                                      received || handles_ ? rs.end : rs.begin, has_peer(op.peer) && received,
                                      std::max(op.value, rs.bytes));
      const double waited =
          received ? timing::receive_waiting(net_.between(op.peer2, rank), rs.begin, rs.halves, rs.bytes) : 0;
      account(rank, n_sendrecv, rs.begin, end, waited, op.value + rs.bytes);
      break;
    }
    default:  // wait
      if (handles_) return queue_wait_step(rank);
      account(rank, n_wait, rs.begin, end, end - rs.begin, rs.bytes);
      break;
  }
  advance(rank, end);
  rs.status = Status::ready;
  if (handles_) return release(rank, end);
  if (running_ == rank) return;  // the rank itself goes on
  // Completed by a message's arrival and due before anything queued: it runs now, which is the
  // order the queue would give it, without the round trip through the heap.
  if (running_ < 0 && runs_next(end, rank)) {
    ++events_;
    execute(rank);
    return;
  }
  push_resume(end, rank);
}

Result simulate(const Program& program, const Network& network, const Options& options, TraceSink* trace) {
  Engine engine(program, network, options, trace);
  return engine.run();
}

}  // namespace augur::sim
