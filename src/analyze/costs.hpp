#pragma once
// What a message costs when nothing disturbs it: the seed's communication grain, the time it
// would take alone on its route. The critical path adds these, never a message's measured time,
// because waiting for a busy link or a late receiver is what tuning can remove.
#include <memory>
#include <span>
#include <string_view>

#include "sim/network/machine.hpp"
#include "sim/network/network.hpp"
#include "sim/network/routing.hpp"

namespace augur::analyze {

class MessageCosts {
 public:
  // Prices messages with `network`'s rules; with a `machine` (a topology) by the route instead:
  // its latency plus the bytes over its narrowest link. Both must outlive the costs.
  explicit MessageCosts(const sim::Network* network, const sim::Machine* machine = nullptr);

  // On a machine of nodes each price below is the level of the ranks it names (docs/nodes.md).
  // From the start of the send to the end of the receive, for a receiver that was waiting.
  double message(int src, int dst, double bytes) const;
  // The receiver's own part of a receive (the rest is waiting for the message).
  double receive_overhead(int src, int dst, double bytes) const;
  // The least a call of `rank` that completes no receive costs it, `bytes` the data it sends: a
  // send whose receiver was waiting, an isend's return, an irecv's post; 0 for waits and others.
  // The trace does not tie such a call to its peer, so it is priced at the cheaper of the levels
  // its peer may be on: still a least cost.
  double call(std::string_view name, int rank, double bytes) const;
  // A collective's time once its members (world ranks) have arrived (the model's T_op for the
  // member's role, at the members' placement); infinity when the network prices collectives only
  // as their messages.
  double collective(std::string_view name, std::span<const int> members, double bytes, bool is_root) const;

  const sim::Machine* machine() const { return machine_; }
  const sim::Router* router() const { return router_.get(); }

 private:
  const sim::Network* network_;
  const sim::Machine* machine_;
  std::unique_ptr<sim::Router> router_;
};

}  // namespace augur::analyze
