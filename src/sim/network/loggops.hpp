#pragma once
// The LogGOPS network (Hoefler et al.) as LogGOPSim computes it: latency L, overhead o per
// message and O per byte, gap g between messages and G per byte, rendezvous above S bytes.
// Contention-free; one rank's messages queue behind each other at both ends, so the algorithms
// of a collective can be compared message by message. For a message of s bytes (s' = s − 1, the
// first byte is free; 0 for an empty message), sent by a call that may start at c:
//   its send starts  t = max(c, the sender's previous send start + g + s'·G)   (the gap)
//   the sender's processor is busy until t + o + s'·O, when the call returns
//   the message reaches its receiver at t + o + L
//   the receiver's processor handles it from h = max(that arrival, when the processor is free,
//   the previous incoming message's h + g + s'·G), busy until h + o + s'·max(O, G), whether or
//   not its receive is posted: a posted receive ends then, a later one when posted;
//   above S bytes the send is done when its receive takes the message: h, or the post if later.
// The kernels do the receiver's part (Network::handles_on_arrival) with the terms below.
//
// Derived from a model file instead (no --loggops), the terms are measured calls, per size n,
// and keep the seed's rules (docs/sim-loggops.md has the reasoning):
//   T(n) = pingpong(n)                          (the one-way time, half a round trip)
//   o(n) = onetomany(p = 1, n)                  (a sender's time for one message), else send(n)
//   g(n) = onetomany(2, n) − onetomany(1, n)    (what each further message adds), else o(n)
//   r(n) = recvmin(n), else 0;  S = the network section's eager_limit (0: never)
// A send starting at c returns at h = max(c + o(n), h_previous + g(n)), its message is received
// T(n) after c (after max(c, post) above S), a receive posted at `post` ends at
// max(post + r(n), that arrival): k messages from one rank take o(n) + (k−1)·g(n) of its time,
// seed 002's T_1m(n, k), and its last is received T_pp(n) after its call started.
#include <limits>
#include <memory>
#include <optional>

#include "sim/network/network.hpp"
#include "timing/placement.hpp"

namespace augur::sim {

struct LogGOPSParams {
  double L = 0, o = 0, g = 0, G = 0, O = 0;               // seconds, seconds per byte
  double S = std::numeric_limits<double>::infinity();  // bytes; messages above it wait for their receive
};

// Parses "L=5us,o=1.5us,g=1us,G=6ns,O=0,S=64KiB"-like lists: times take s, ms, us or ns
// (default s); G and O are per byte; S takes B, KiB, MiB (left out: no rendezvous).
// Throws std::invalid_argument.
LogGOPSParams parse_loggops(std::string_view text);

class LogGOPSNetwork final : public Network {
 public:
  explicit LogGOPSNetwork(LogGOPSParams params);
  LogGOPSNetwork(const model::Model& model, model::Bound bound);
  // A machine of nodes (docs/nodes.md) whose ranks lie as `placement` says: a message between two
  // ranks of one node takes the terms of the model's on-node level. A model of one level ignores it.
  LogGOPSNetwork(const model::Model& model, model::Bound bound, timing::Placement placement);
  // The same with the terms given: `params` between nodes, `on_node` between two ranks of one node.
  LogGOPSNetwork(LogGOPSParams params, LogGOPSParams on_node, timing::Placement placement);

  double send_end(double& nic_free, timing::SendMode mode, double start, double bytes) const override;
  Isend isend(double& nic_free, timing::SendMode mode, double start, double bytes) const override;
  bool waits_for_receiver(timing::SendMode mode, double bytes) const override;
  double departure(double& link_free, double start, double bytes) const override;
  double arrival(double departure, bool rendezvous, double bytes) const override;
  double recvmin(double bytes) const override;
  double receive_end(double post, double departure, bool rendezvous, double bytes) const override;
  double waiting_send_end(double departure, double receiver_post, double bytes) const override;
  bool handles_on_arrival() const override { return !model_; }
  double arrival_overhead(double bytes) const override;
  double receive_gap(double bytes) const override { return gap(bytes); }
  double collective_duration(std::string_view op, int p, double bytes, bool is_root) const override;
  std::string describe() const override;
  const Network& between(int src, int dst) const override;

  double overhead(double bytes) const;  // the sender's busy time: o + s'·O, or o(n)
  double gap(double bytes) const;       // g + s'·G, or g(n)
  double one_way(double bytes) const;   // from send start to receive end, nothing in the way
  double receiver(double bytes) const;  // the receiver's busy time: o + s'·max(O, G), or r(n)

 private:
  double eval(const model::Operation* op, double p, double bytes) const;

  LogGOPSParams params_;
  const model::Model* model_ = nullptr;
  model::Bound bound_ = model::Bound::avg;
  const model::Operation *pingpong_ = nullptr, *onetomany_ = nullptr, *send_ = nullptr, *recvmin_ = nullptr;
  // A machine of nodes: where the ranks lie, and its on-node level as a network of its own.
  std::optional<timing::Placement> placement_;
  std::unique_ptr<model::Model> on_node_model_;
  std::unique_ptr<LogGOPSNetwork> on_node_;
};

}  // namespace augur::sim
