#pragma once
// `--network topology`: messages cross a machine's links as flows sharing bandwidth max-min
// fairly (transfers.hpp); the kernel starts each eager message's transfer when it is sent and
// delivers it when the transfer ends plus the route's latency. A synchronous send waits for its
// receiver; the kernel then carries its data as a transfer too. Collectives are expanded into
// messages. What is not contended: messages between ranks of one node (no links: the model's
// one-way time when `on_node` is given, else at once). Compute runs at the speed of the rank's
// node type.
#include <memory>

#include "sim/network/network.hpp"
#include "sim/network/transfers.hpp"

namespace augur::sim {

class TopologyNetwork final : public Network {
 public:
  // `overhead`: the sender's busy time per message, seconds.
  explicit TopologyNetwork(const Machine& machine, Sharing sharing = Sharing::fair, OnNodeTransit on_node = {},
                           double overhead = 0);

  double send_end(double& nic_free, timing::SendMode mode, double start, double bytes) const override;
  Isend isend(double& nic_free, timing::SendMode mode, double start, double bytes) const override;
  bool waits_for_receiver(timing::SendMode mode, double) const override { return mode == timing::SendMode::synchronous; }
  double arrival(double send_start, bool, double) const override { return send_start; }
  double recvmin(double) const override { return 0; }
  double receive_end(double post, double send_start, bool rendezvous, double bytes) const override;
  double waiting_send_end(double send_start, double receiver_post, double bytes) const override;
  double collective_duration(std::string_view op, int p, double bytes, bool is_root) const override;
  std::string describe() const override;
  Transfers* transfers() const override { return transfers_.get(); }
  double compute_speed(int rank) const override;

 private:
  double uncontended(double bytes) const;  // the slowest link, alone: a bound for callers without transfers

  std::unique_ptr<Transfers> transfers_;
  Sharing sharing_;
  double overhead_;
  double slowest_ = 0, longest_ = 0;  // the narrowest link's bandwidth, the largest latency
};

}  // namespace augur::sim
