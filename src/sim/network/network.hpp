#pragma once
// How the simulator prices point-to-point messages and (unexpanded) collectives. Two models:
//   ModelNetwork:  the model file's equations through timing::Rules, called exactly as the
//                  reverse profiler calls them (src/revprof/shim/p2p.cpp, requests.cpp), so a
//                  replayed trace predicts the same times as the run that wrote it;
//   LogGOPSNetwork: L, o, g, G, O, S (loggops.hpp), LogGOPSim's rules: one rank's messages
//                  queue behind each other at both ends, so algorithms built from messages
//                  can be compared.
#include <cmath>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "model/model.hpp"
#include "timing/levels.hpp"
#include "timing/rules.hpp"

namespace augur::sim {

class Transfers;

// LogGOPS keeps its times to the picosecond: sums that are equal in LogGOPSim's integer
// nanoseconds then compare equal, and simultaneous events go by LogGOPSim's order rather than by
// which sum rounded lower.
inline double whole_picoseconds(double seconds) { return std::round(seconds * 1e12) / 1e12; }

class Network {
 public:
  virtual ~Network() = default;

  // A send that starts at `start`: the time its call returns when nothing waits for the
  // receiver. `nic_free` is the sender's own state (when its next message may leave); networks
  // with a gap read and update it.
  virtual double send_end(double& nic_free, timing::SendMode mode, double start, double bytes) const = 0;
  // MPI_Isend started at `start`: when its call returns, and (when nothing waits for the
  // receiver) when its request completes.
  struct Isend {
    double returns, completes;
  };
  virtual Isend isend(double& nic_free, timing::SendMode mode, double start, double bytes) const = 0;
  // Posting a receive costs nothing unless the network says otherwise.
  virtual double irecv_post(double) const { return 0; }
  virtual bool waits_for_receiver(timing::SendMode mode, double bytes) const = 0;
  // When a message sent at `start` leaves its sender, whose link is busy until `link_free` (the
  // sender's own state); the start itself unless the network spaces a sender's messages by their
  // bytes (timing::BasicRules::departure).
  virtual double departure(double& /*link_free*/, double start, double /*bytes*/) const { return start; }
  // When a message's envelope reaches the receiver, for matching wildcard receives in simulated time.
  virtual double arrival(double send_start, bool rendezvous, double bytes) const = 0;
  virtual double recvmin(double bytes) const = 0;
  virtual double receive_end(double post, double send_start, bool rendezvous, double bytes) const = 0;
  // A receive whose message crossed the receiver's own latest send to its sender, and an
  // MPI_Sendrecv: only the model's equations have a floor for these (rules.hpp). The rules that
  // price a crossing, when they can change a receive's end; nullptr ends such receives by their
  // halves.
  virtual const timing::Rules* crossing_rules() const { return nullptr; }
  virtual double sendrecv_end(double, double halves_end, double) const { return halves_end; }
  virtual double waiting_send_end(double send_start, double receiver_post, double bytes) const = 0;
  // LogGOPS: the receiver's processor handles each message when it arrives, busy
  // arrival_overhead(n), after the rank's operation in progress and no sooner than
  // receive_gap(n) after it began on the previous one; a receive then ends at
  // max(post + recvmin(n), that handling's end), and a sender waiting for its receiver is
  // released when the receive takes the message. The kernels keep that state; receive_end and
  // waiting_send_end are not asked. False: they price the receive.
  virtual bool handles_on_arrival() const { return false; }
  virtual double arrival_overhead(double) const { return 0; }
  virtual double receive_gap(double) const { return 0; }
  virtual double collective_duration(std::string_view op, int p, double bytes, bool is_root) const = 0;
  // A machine of nodes (docs/nodes.md): the network that prices messages between world ranks
  // `src` and `dst`, its on-node level when they share a node; itself otherwise and on every
  // network of one level.
  virtual const Network& between(int /*src*/, int /*dst*/) const { return *this; }
  // Whether collectives are priced by their members' placement (then the kernel asks
  // shape_of its members once, and the duration with that shape).
  virtual bool places_ranks() const { return false; }
  virtual timing::NodesAndRanks shape_of(std::span<const int> members) const {
    return {static_cast<int>(members.size()), 1};
  }
  virtual double collective_duration(std::string_view op, int p, timing::NodesAndRanks /*shape*/, double bytes,
                                     bool is_root) const {
    return collective_duration(op, p, bytes, is_root);
  }
  // Whether collectives can be priced whole (else they must be expanded into messages).
  virtual bool prices_collectives() const { return false; }
  virtual std::string describe() const = 0;
  // A network that carries eager messages as flows (topology_network.hpp): the kernel starts
  // their transfers when sent and delivers them when they end; nullptr for the others.
  virtual Transfers* transfers() const { return nullptr; }
  // How fast `rank` computes relative to the model's compute step.
  virtual double compute_speed(int) const { return 1; }
};

// The model's equations, as the reverse profiler uses them.
class ModelNetwork final : public Network {
 public:
  ModelNetwork(const model::Model& model, model::Bound bound);
  // A machine of nodes whose ranks lie as `placement` says; a model of one level ignores it.
  ModelNetwork(const model::Model& model, model::Bound bound, timing::Placement placement);

  double send_end(double& nic_free, timing::SendMode mode, double start, double bytes) const override;
  Isend isend(double& nic_free, timing::SendMode mode, double start, double bytes) const override;
  double irecv_post(double bytes) const override { return rules_.irecv_post(bytes); }
  bool waits_for_receiver(timing::SendMode mode, double bytes) const override {
    return rules_.waits_for_receiver(mode, bytes);
  }
  double departure(double& link_free, double start, double bytes) const override {
    return rules_.departure(link_free, start, bytes);
  }
  double arrival(double send_start, bool rendezvous, double bytes) const override;
  double recvmin(double bytes) const override { return rules_.recvmin(bytes); }
  double receive_end(double post, double send_start, bool rendezvous, double bytes) const override {
    return rules_.receive_end(post, send_start, rendezvous, bytes);
  }
  const timing::Rules* crossing_rules() const override { return crosses_ ? &rules_ : nullptr; }
  double sendrecv_end(double begin, double halves_end, double bytes) const override {
    return rules_.sendrecv_end(begin, halves_end, bytes);
  }
  double waiting_send_end(double send_start, double receiver_post, double bytes) const override {
    return rules_.waiting_send_end(send_start, receiver_post, bytes);
  }
  double collective_duration(std::string_view op, int p, double bytes, bool is_root) const override {
    return rules_.collective_duration(op, p, bytes, is_root);
  }
  bool prices_collectives() const override { return true; }
  std::string describe() const override { return "model"; }
  const timing::Rules& rules() const { return rules_; }
  const Network& between(int src, int dst) const override {
    return on_node_ && src >= 0 && dst >= 0 && levels_->placement().same_node(src, dst) ? *on_node_ : *this;
  }
  bool places_ranks() const override { return on_node_ != nullptr; }
  timing::NodesAndRanks shape_of(std::span<const int> members) const override {
    return levels_ ? levels_->placement().shape(members) : Network::shape_of(members);
  }
  double collective_duration(std::string_view op, int p, timing::NodesAndRanks shape, double bytes,
                             bool is_root) const override {
    return levels_ ? levels_->collective_duration(op, p, shape, bytes, is_root) : rules_.collective_duration(op, p, bytes, is_root);
  }

 private:
  timing::Rules rules_;
  bool crosses_;  // the model has `exchange`, the floor of a crossed message
  // A machine of nodes: its on-node level as a network of its own, and the rules of its collectives by placement.
  std::unique_ptr<model::Model> on_node_model_;
  std::unique_ptr<ModelNetwork> on_node_;
  std::unique_ptr<timing::LevelRules> levels_;
};

}  // namespace augur::sim
