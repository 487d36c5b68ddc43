// Messages and requests: MPI matching by (source, tag, communicator) in non-overtaking order,
// and the receive rules of timing::Rules (through the Network) applied at the match, with the
// steps around them of timing/steps.hpp.
#include <algorithm>
#include <limits>

#include "sim/kernel/engine.hpp"
#include "timing/steps.hpp"

namespace augur::sim {
namespace {

bool matches(const Request& r, const Message& m) {
  return r.comm == m.comm && r.internal == m.internal && (r.peer == kAny || r.peer == m.src) &&
         (r.tag == kAny || r.tag == m.tag);
}

std::uint64_t send_key(int rank, std::uint16_t comm, int peer) {
  return std::uint64_t(rank) << 40 | std::uint64_t(comm) << 24 | std::uint64_t(std::uint32_t(peer) & 0xFFFFFF);
}

// Pools keep freed slots on a list threaded through `next`: no allocation per message once warm.
template <class T>
std::uint32_t take(std::vector<T>& pool, std::uint32_t& free_list) {
  if (free_list == kNil) {
    pool.emplace_back();
    return static_cast<std::uint32_t>(pool.size() - 1);
  }
  const auto id = free_list;
  free_list = pool[id].next;
  pool[id] = T{};
  return id;
}

// The rank's queues (queues.hpp), threaded through the pools by a member.
template <class T>
auto link_of(std::vector<T>& pool, std::uint32_t T::*link) {
  return [&pool, link](std::uint32_t i) -> std::uint32_t& { return pool[i].*link; };
}

}  // namespace

std::uint32_t Engine::new_request(int rank, bool receive, const Op& op) {
  const auto id = take(requests_, free_request_);
  auto& r = requests_[id];
  r.rank = rank;
  r.receive = receive;
  r.post = ranks_[rank].now;
  r.bytes = receive ? 0 : op.value;
  r.peer = op.peer;
  r.tag = op.tag;
  r.recorded = receive && op.peer == kAny ? op.peer2 : kAny;
  r.comm = op.comm;
  r.internal = op.flags & kInternal;
  return id;
}

void Engine::free_request(std::uint32_t id) {
  requests_[id].next = free_request_;
  free_request_ = id;
}

void Engine::enqueue_request(RankState& rs, std::uint32_t id) {
  append(rs.requests_head, rs.requests_tail, link_of(requests_, &Request::next), id);
}

timing::Flight Engine::own_last_send(int rank, std::uint16_t comm, int peer) const {
  auto it = last_sends_.find(send_key(rank, comm, peer));
  return it == last_sends_.end() ? timing::Flight{} : it->second;
}

void Engine::note_send(int rank, std::uint16_t comm, int peer, timing::Flight flight) {
  last_sends_[send_key(rank, comm, peer)] = flight;
}

std::uint32_t Engine::send_message(int rank, const Op& op, bool rendezvous) {
  auto& rs = ranks_[rank];
  const auto id = take(messages_, free_message_);
  auto& m = messages_[id];
  const Network& net = net_.between(rank, op.peer);
  m.start = net.departure(rs.link_free, rs.now, op.value);
  m.bytes = op.value;
  m.src = rank;
  m.dst = op.peer;
  m.tag = op.tag;
  m.comm = op.comm;
  m.rendezvous = rendezvous;
  m.internal = op.flags & kInternal;
  if (crossing_) note_send(rank, op.comm, op.peer, {m.start, op.value});
  if (trace_) trace_->send(rank, rs.now, op.peer, op.tag, op.value, program_.comms()[op.comm].trace_id);
  ++message_count_;
  if (transfers_) {
    transfer(rank, id);
    return id;
  }
  m.arrival = ordered_arrival(rank, m, net.arrival(m.start, rendezvous, op.value));
  queue_.push(m.arrival, handles_ ? 0 : static_cast<std::uint32_t>(op.peer), EventType::deliver, id);
  return id;
}

void Engine::post_receive(std::uint32_t request) {
  auto& rs = ranks_[requests_[request].rank];
  const auto m = unlink_first(rs.unexpected_head, rs.unexpected_tail, link_of(messages_, &Message::next),
                              [&](std::uint32_t i) { return matches(requests_[request], messages_[i]); });
  if (m != kNil) return complete_receive(request, m);
  append(rs.posted_head, rs.posted_tail, link_of(requests_, &Request::next_posted), request);
}

void Engine::deliver(const Event& e) {
  const auto message = e.payload;
  if (messages_[message].carrying) {  // a rendezvous's data, matched before
    const double arrival = messages_[message].arrival;
    return end_message(messages_[message].next, message, arrival, arrival);
  }
  auto& rs = ranks_[messages_[message].dst];
  if (handles_ && !handle_arrival(e)) return;
  const auto r = unlink_first(rs.posted_head, rs.posted_tail, link_of(requests_, &Request::next_posted),
                              [&](std::uint32_t i) { return matches(requests_[i], messages_[message]); });
  if (r != kNil) return complete_receive(r, message);
  append(rs.unexpected_head, rs.unexpected_tail, link_of(messages_, &Message::next), message);
}

// The halves' rule, as the reverse profiler's take_stamp takes it (timing/steps.hpp); the floor of
// a crossed message waits for settle_receive.
void Engine::complete_receive(std::uint32_t request, std::uint32_t message) {
  const Message& m = messages_[message];
  auto& r = requests_[request];
  r.wildcard = (r.peer == kAny ? trace::kAnySource : 0) | (r.tag == kAny ? trace::kAnyTag : 0);
  if (r.recorded != kAny) {
    ++wildcards_;
    changed_matches_ += r.recorded != m.src;
  }
  r.bytes = m.bytes;
  r.peer = m.src;
  r.tag = m.tag;
  r.in_start = m.start;
  if (transfers_ && m.rendezvous) return carry_data(request, message);
  const Network& net = net_.between(m.src, m.dst);
  if (handles_)  // a rendezvous sender is released when its receive takes the message
    return end_message(request, message, std::max(r.post + net.recvmin(m.bytes), m.handled), std::max(r.post, m.taken));
  // A transferred message's arrival is known only from its transfer.
  const double halves = transfers_ ? std::max(r.post + net.recvmin(m.bytes), m.arrival)
                                   : net.receive_end(r.post, m.start, m.rendezvous, m.bytes);
  const double sender_end = m.rendezvous ? net.waiting_send_end(m.start, r.post, m.bytes) : 0;
  end_message(request, message, halves, sender_end);
}

// The message's receive ends by the halves' rule at `halves`; a sender waiting for it at
// `sender_end` at the earliest.
void Engine::end_message(std::uint32_t request, std::uint32_t message, double halves, double sender_end) {
  const Message m = messages_[message];
  messages_[message].next = free_message_;
  free_message_ = message;
  auto& r = requests_[request];
  r.halves = halves;
  r.end = halves;
  r.unsettled = true;
  if (r.awaited) settle_receive(r);
  const bool waiting_sender = m.rendezvous && m.sender_request != kNil;
  const auto release_sender = [&] {
    auto& s = requests_[m.sender_request];
    s.end = timing::waited_send(s.halves, sender_end).end;
    complete(m.sender_request);
  };
  // LogGOPS frees the two ranks in rank order, as LogGOPSim does; the others the sender first.
  const bool sender_first = !handles_ || m.src < r.rank;
  if (waiting_sender && sender_first) release_sender();
  complete(request);
  if (waiting_sender && !sender_first) release_sender();
}

// The end of a matched receive is decided when the program sees it complete, as the reverse
// profiler's take_stamp does at the Wait (or at the blocking receive): only then does the
// crossing rule look at the rank's latest send to the sender. A message that arrived before
// its irecv was posted is matched at the post, before the sends that follow it in the program.
void Engine::settle_receive(Request& r) {
  if (!r.unsettled) return;
  r.unsettled = false;
  if (crossing_)
    if (const auto* rules = net_.between(r.peer, r.rank).crossing_rules())
      r.end = rules->crossed_receive_end(r.post, own_last_send(r.rank, r.comm, r.peer), {r.in_start, r.bytes}, r.halves);
  if (trace_)
    trace_->recv(r.rank, r.post, r.end, r.peer, r.tag, r.bytes, program_.comms()[r.comm].trace_id, r.wildcard);
}

void Engine::complete(std::uint32_t id) {
  auto& r = requests_[id];
  r.done = true;
  if (handles_) ranks_[r.rank].done = std::max(ranks_[r.rank].done, r.end);
  if (!r.awaited) return;
  const int rank = r.rank;
  auto& rs = ranks_[rank];
  rs.end = std::max(rs.end, r.end);
  rs.bytes += r.bytes;
  rs.halves = std::max(rs.halves, r.halves);
  note_received(rs, r);
  free_request(id);
  if (--rs.pending == 0) finish_call(rank);
}

}  // namespace augur::sim
