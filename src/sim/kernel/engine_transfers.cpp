// Messages carried by a network with transfers (`--network topology`): an eager message's
// transfer starts when it is sent; when it ends (the network event), the message reaches its
// receiver after the route's latency. MPI's non-overtaking order holds per (sender, receiver,
// communicator): a message that ends before an earlier one of its pair waits for it, and
// nothing else (send_order.cpp). A message between ranks of one node crosses no link: it takes
// the model's one-way time (Transfers::priced_on_node), in order behind its pair's others. A
// message that waits for its receiver (a synchronous send) moves its data once matched, as a
// flow contending with the others.
//
// The transfers started and ended at one instant are shared out once, by a settle event after
// every rank's at that instant: re-sharing the links at every start was most of an all-to-all's
// time when thousands of flows meet.
#include <limits>

#include "sim/kernel/engine.hpp"
#include "sim/network/transfers.hpp"

namespace augur::sim {

// A message that waits for its receiver announces itself at once (its data moves at the
// match), and one between ranks of one node when its transit ends, both still behind their
// pair's earlier messages in transfer.
void Engine::transfer(int rank, std::uint32_t message) {
  auto& rs = ranks_[rank];
  const auto order = find_order(rank, messages_[message], rs.now);
  auto& m = messages_[message];
  m.arrival = m.rendezvous ? rs.now : std::numeric_limits<double>::infinity();
  if (!m.rendezvous && transfers_->priced_on_node(rank, m.dst)) m.arrival = rs.now + transfers_->on_node_transit(m.bytes);
  m.order = order;
  m.next_sent = kNil;
  auto& o = orders_[order];
  (o.tail == kNil ? o.head : messages_[o.tail].next_sent) = message;
  o.tail = message;
  if (m.arrival != std::numeric_limits<double>::infinity()) return release_sent(order);
  transfers_->start(rs.now, rank, m.dst, m.bytes, message);
  transfers_changed(rs.now);
}

// A transfer due at once (no bytes, no links) is taken at this instant's network event, as
// when every start was shared out on its own; the others wait for the instant's settle event.
void Engine::transfers_changed(double now) {
  if (transfers_->settled() || transfers_->due_by(now)) return schedule_transfers();
  if (settle_event_ == now) return;
  settle_event_ = now;
  queue_.push(now, EventQueue::kMaxRanks - 1, EventType::settle);
}

void Engine::settle_transfers(double time) {
  if (time == settle_event_) settle_event_ = -1;
  schedule_transfers();
}

// The data of a matched rendezvous, from the match (now) on; the receive and the send complete
// when it arrives (deliver, then end_message).
void Engine::carry_data(std::uint32_t request, std::uint32_t message) {
  auto& m = messages_[message];
  const double matched = std::max(requests_[request].post, m.arrival);
  m.carrying = true;
  m.next = request;
  if (transfers_->priced_on_node(m.src, m.dst)) {
    m.arrival = matched + transfers_->on_node_transit(m.bytes);
    queue_.push(m.arrival, static_cast<std::uint32_t>(m.dst), EventType::deliver, message);
    return;
  }
  transfers_->start(matched, m.src, m.dst, m.bytes, message);
  schedule_transfers();
}

void Engine::schedule_transfers() {
  const double next = transfers_->next_finish();
  if (next == std::numeric_limits<double>::infinity() || next == network_event_) return;
  network_event_ = next;
  queue_.push(next, 0, EventType::network);
}

// A transfer started since this event was queued may have moved the next end: then a later
// event is queued for it, and this one is stale.
void Engine::transfers_end(double time) {
  if (time == network_event_) network_event_ = -1;  // taken: the next end needs an event again
  if (time != transfers_->next_finish()) return;
  for (auto [message, arrival] : transfers_->finish_next()) {
    auto& m = messages_[message];
    m.arrival = arrival;
    if (m.carrying) queue_.push(arrival, static_cast<std::uint32_t>(m.dst), EventType::deliver, message);
    else release_sent(m.order);
  }
  transfers_changed(time);
}

void Engine::release_sent(std::uint32_t order) {
  auto& o = orders_[order];
  while (o.head != kNil && messages_[o.head].arrival != std::numeric_limits<double>::infinity()) {
    const auto id = o.head;
    auto& m = messages_[id];
    o.head = m.next_sent;
    if (o.head == kNil) o.tail = kNil;
    m.arrival = std::max(m.arrival, o.last);
    o.last = m.arrival;
    queue_.push(m.arrival, static_cast<std::uint32_t>(m.dst), EventType::deliver, id);
  }
}

}  // namespace augur::sim
