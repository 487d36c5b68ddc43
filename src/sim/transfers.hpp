#pragma once
// Messages as flows over a machine (issue 24): each message's payload crosses its route's
// channels as a flow sharing them max-min fairly with the others in flight (flow.hpp), then
// reaches its receiver after the route's latency. The kernel starts a transfer when a message is
// sent, and asks when the next one ends; finished transfers come back with their arrival times.
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/flow.hpp"
#include "sim/link_usage.hpp"
#include "sim/routing.hpp"

namespace augur::sim {

class Transfers {
 public:
  explicit Transfers(const Machine& machine);

  void start(double now, int src_rank, int dst_rank, double bytes, std::uint32_t message);
  double next_finish() const { return solver_.next_finish(); }
  struct Arrival {
    std::uint32_t message;
    double time;
  };
  // The transfers due at next_finish(); the list is valid until the next call.
  const std::vector<Arrival>& finish_next();
  int node_of(int rank);               // the node that runs `rank`
  const Machine& machine() const { return machine_; }
  // Uncontended: the route's latency plus the bytes over its narrowest link.
  double alone(int src_rank, int dst_rank, double bytes);
  // From now on, note when each channel is busy (off by default: it costs a pass over each
  // flow's channels at its start and its end).
  void record_usage() { usage_ = std::make_unique<LinkUsage>(router_.channels()); }
  const LinkUsage* usage() const { return usage_.get(); }

 private:
  Machine machine_;
  Router router_;
  FlowSolver solver_;
  // Programs send between few pairs of nodes again and again (a ring, a stencil): routing each
  // message anew was a fifth of a torus simulation. Bounded, so an all-to-all on many nodes
  // cannot fill the memory with routes.
  std::unordered_map<std::uint64_t, Route> routes_;
  static constexpr std::size_t kMaxRoutes = 1 << 20;
  // By source node: the destination of its latest route and the route, found without hashing
  // when a node sends to the same neighbour again (a ring: every message).
  struct Latest {
    int to = -1;
    const Route* route = nullptr;
  };
  std::vector<Latest> latest_;
  const Route& route(int src_rank, int dst_rank);
  std::vector<Arrival> arrivals_;
  std::vector<int> nodes_;  // by rank, filled as ranks appear
  std::vector<std::pair<std::uint32_t, double>> flows_;  // by flow id: message, route latency
  std::unique_ptr<LinkUsage> usage_;
};

}  // namespace augur::sim
