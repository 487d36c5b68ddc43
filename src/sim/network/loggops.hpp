#pragma once
// The LogGOPS network (Hoefler et al.): latency L, overhead o per message and O per byte, gap g
// between messages leaving one rank and G per byte, rendezvous above S bytes. Contention-free,
// like the seeds' models; what it adds over the model network is that one rank's messages queue
// behind each other, so the algorithms of a collective can be compared message by message.
//
// A send that starts at c returns when its message has been handed to the network:
//   h = max(c + o(n), h_previous + g(n))
// and its message has been received T(n) after c (eager), T(n) after max(c, post) above S.
// A receive posted at `post` ends at max(post + r(n), that arrival).
//
// Given on the command line: o(n) = o + n·O, g(n) = g + n·G, r(n) = o + n·O,
//   T(n) = o(n) + L + n·G + r(n).
// Derived from a model file per message size (docs/sim.md has the reasoning):
//   T(n) = pingpong(n)                          (the one-way time, half a round trip)
//   o(n) = onetomany(p = 1, n)                  (a sender's time for one message), else send(n)
//   g(n) = onetomany(2, n) − onetomany(1, n)    (what each further message adds), else o(n)
//   r(n) = recvmin(n), else 0;  S = the network section's eager_limit (0: never)
// so k messages from one rank take o(n) + (k−1)·g(n) of its time, seed 002's T_1m(n, k).
#include <optional>

#include "sim/network/network.hpp"

namespace augur::sim {

struct LogGOPSParams {
  double L = 0, o = 0, g = 0, G = 0, O = 0, S = 0;  // seconds, seconds per byte, bytes
};

// Parses "L=5us,o=1.5us,g=1us,G=6ns,O=0,S=64KiB"-like lists: times take s, ms, us or ns
// (default s); G and O are per byte; S takes B, KiB, MiB. Throws std::invalid_argument.
LogGOPSParams parse_loggops(std::string_view text);

class LogGOPSNetwork final : public Network {
 public:
  explicit LogGOPSNetwork(LogGOPSParams params);
  LogGOPSNetwork(const model::Model& model, model::Bound bound);

  double send_end(double& nic_free, timing::SendMode mode, double start, double bytes) const override;
  Isend isend(double& nic_free, timing::SendMode mode, double start, double bytes) const override;
  bool waits_for_receiver(timing::SendMode mode, double bytes) const override;
  double arrival(double send_start, bool rendezvous, double bytes) const override;
  double recvmin(double bytes) const override { return receiver(bytes); }
  double receive_end(double post, double send_start, bool rendezvous, double bytes) const override;
  double waiting_send_end(double send_start, double receiver_post, double bytes) const override;
  double collective_duration(std::string_view op, int p, double bytes, bool is_root) const override;
  std::string describe() const override;

  double overhead(double bytes) const;  // o(n)
  double gap(double bytes) const;       // g(n)
  double one_way(double bytes) const;   // T(n)
  double receiver(double bytes) const;  // r(n)

 private:
  double eval(const model::Operation* op, double p, double bytes) const;

  LogGOPSParams params_;
  const model::Model* model_ = nullptr;
  model::Bound bound_ = model::Bound::avg;
  const model::Operation *pingpong_ = nullptr, *onetomany_ = nullptr, *send_ = nullptr, *recvmin_ = nullptr;
};

}  // namespace augur::sim
