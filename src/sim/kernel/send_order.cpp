// MPI's non-overtaking rule: messages from one sender to one receiver on one communicator
// arrive in the order sent. Nothing orders a sender's messages to different receivers (or on
// different communicators): a small message to one rank does not wait for a large one sent
// before it to another. Each pair with messages still to arrive has a PairOrder on its sender's
// list; a pair whose latest message has arrived by the sender's present time can constrain no
// later message (every arrival comes after its send) and is dropped.
#include "sim/kernel/engine.hpp"

namespace augur::sim {
namespace {

bool same_pair(const PairOrder& o, const Message& m) {
  return o.dst == m.dst && o.comm == m.comm && o.internal == m.internal;
}

bool over(const PairOrder& o, double now) { return o.head == kNil && o.last <= now; }

}  // namespace

// Networks that know a message's arrival when it is sent: at least its pair's latest. The
// common case, a message arriving after all of its sender's earlier ones, needs no search.
double Engine::ordered_arrival(int rank, const Message& m, double arrival) {
  auto& rs = ranks_[rank];
  if (arrival >= rs.last_arrival) {
    const bool newest_is_pair = rs.orders_head != kNil && same_pair(orders_[rs.orders_head], m);
    orders_[newest_is_pair ? rs.orders_head : add_order(rank, m)].last = arrival;
  } else {
    auto& o = orders_[find_order(rank, m, rs.now)];
    arrival = std::max(arrival, o.last);
    o.last = arrival;
  }
  rs.last_arrival = std::max(rs.last_arrival, arrival);
  return arrival;
}

// The pair's newest PairOrder, a new one if it has none; drops those over on the way.
std::uint32_t Engine::find_order(int rank, const Message& m, double now) {
  auto& rs = ranks_[rank];
  std::uint32_t previous = kNil;
  for (auto id = rs.orders_head; id != kNil;) {
    auto& o = orders_[id];
    const auto next = o.next;
    if (same_pair(o, m)) return id;
    if (over(o, now)) drop_order(rs, previous, id);
    else previous = id;
    id = next;
  }
  return add_order(rank, m);
}

// The pool holds about one PairOrder per message in flight: a rank sending again has usually
// seen its latest messages arrive (an exchange's answer), so those at the front go at once, and
// the rest when the list has doubled.
std::uint32_t Engine::add_order(int rank, const Message& m) {
  auto& rs = ranks_[rank];
  while (rs.orders_head != kNil && over(orders_[rs.orders_head], rs.now)) drop_order(rs, kNil, rs.orders_head);
  if (rs.orders >= rs.orders_prune_at) prune_orders(rank, rs.now);
  std::uint32_t id = free_order_;
  if (id == kNil) {
    id = static_cast<std::uint32_t>(orders_.size());
    orders_.emplace_back();
  } else {
    free_order_ = orders_[id].next;
  }
  orders_[id] = {0, kNil, kNil, rs.orders_head, m.dst, m.comm, m.internal};
  rs.orders_head = id;
  ++rs.orders;
  return id;
}

void Engine::drop_order(RankState& rs, std::uint32_t previous, std::uint32_t id) {
  (previous == kNil ? rs.orders_head : orders_[previous].next) = orders_[id].next;
  orders_[id].next = free_order_;
  free_order_ = id;
  --rs.orders;
}

// Amortised: the list is walked again only once it has doubled since.
void Engine::prune_orders(int rank, double now) {
  auto& rs = ranks_[rank];
  std::uint32_t previous = kNil;
  for (auto id = rs.orders_head; id != kNil;) {
    auto& o = orders_[id];
    const auto next = o.next;
    if (over(o, now)) drop_order(rs, previous, id);
    else previous = id;
    id = next;
  }
  rs.orders_prune_at = std::max<std::uint32_t>(4, 2 * rs.orders);
}

}  // namespace augur::sim
