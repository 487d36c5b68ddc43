#include "sim/network/topology_network.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include <fmt/format.h>

namespace augur::sim {

TopologyNetwork::TopologyNetwork(const Machine& machine, Sharing sharing, OnNodeTransit on_node, double overhead)
    : transfers_(std::make_unique<Transfers>(machine, sharing, std::move(on_node))),
      sharing_(sharing),
      overhead_(overhead) {
  slowest_ = std::numeric_limits<double>::infinity();
  for (const auto& l : machine.links) {
    slowest_ = std::min(slowest_, l.bandwidth);
    longest_ = std::max(longest_, l.latency + machine.hop_latency);
  }
}

// Eager: the payload is handed to the network, which carries it on without the sender.
double TopologyNetwork::send_end(double&, timing::SendMode, double start, double) const { return start + overhead_; }

Network::Isend TopologyNetwork::isend(double&, timing::SendMode, double start, double) const {
  return {start + overhead_, start + overhead_};
}

// The kernel carries every message's data as a transfer, a synchronous send's from its match, and
// ends receives at the arrival; these answer callers without transfers: the data moving once the
// receive is posted, alone on the slowest link.
double TopologyNetwork::receive_end(double post, double send_start, bool, double bytes) const {
  return std::max(post, send_start) + uncontended(bytes);
}

double TopologyNetwork::waiting_send_end(double send_start, double receiver_post, double bytes) const {
  return std::max(send_start, receiver_post) + uncontended(bytes);
}

double TopologyNetwork::uncontended(double bytes) const {
  return slowest_ == std::numeric_limits<double>::infinity() ? 0 : longest_ + bytes / slowest_;
}

double TopologyNetwork::collective_duration(std::string_view op, int, double, bool) const {
  throw std::logic_error("topology prices messages only; collective " + std::string(op) + " must be expanded");
}

double TopologyNetwork::compute_speed(int rank) const {
  const auto& m = transfers_->machine();
  return m.type_of_node(transfers_->node_of(rank)).speed;
}

std::string TopologyNetwork::describe() const {
  const auto& m = transfers_->machine();
  return fmt::format("topology {} ({} nodes, {} switches, {} links; flows share links {})", m.name, m.nodes(),
                     m.switches, m.links.size(),
                     sharing_ == Sharing::fair ? "max-min" : "by inverse route latency after it, as CM02");
}

}  // namespace augur::sim
