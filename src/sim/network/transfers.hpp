#pragma once
// Messages as flows over a machine (issue 24): each message's payload crosses its route's
// channels as a flow sharing them max-min fairly with the others in flight (flow.hpp), then
// reaches its receiver after the route's latency. The kernel starts a transfer when a message is
// sent, and asks when the next one ends; finished transfers come back with their arrival times.
//
// Sharing::rtt is the physics of SimGrid's CM02 flow model (with its TCP corrections off): a
// message first waits out its route's latency, taking no bandwidth, then flows, its share of a
// link inversely proportional to its route's latency (the round trip time's unfairness of TCP;
// a route without latency has weight 1, as in CM02), and arrives when its data has crossed.
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/network/flow.hpp"
#include "sim/network/link_usage.hpp"
#include "sim/network/routing.hpp"

namespace augur::sim {

enum class Sharing { fair, rtt };
Sharing parse_sharing(std::string_view name);  // "fair" or "rtt"; std::invalid_argument otherwise

// A message's time between two ranks of one node, by its bytes: the model's one-way time.
using OnNodeTransit = std::function<double(double bytes)>;

class Transfers {
 public:
  // Without `on_node`, messages between ranks of one node cross its memory link if it has one,
  // else no link, arriving at once.
  explicit Transfers(const Machine& machine, Sharing sharing = Sharing::fair, OnNodeTransit on_node = {});

  void start(double now, int src_rank, int dst_rank, double bytes, std::uint32_t message);
  // Or the next start after a latency, which finishes nothing. Settles first: the starts and
  // finishes of one instant are shared out together (flow.hpp), when this is next asked.
  double next_finish();
  bool settled() const { return solver_.settled(); }
  // Whether a transfer is due by `now` without settling (one of no bytes or no links started now).
  bool due_by(double now) const { return solver_.due_by(now); }
  struct Arrival {
    std::uint32_t message;
    double time;
  };
  // The transfers due at next_finish(); the list is valid until the next call.
  const std::vector<Arrival>& finish_next();
  // The node that runs `rank`; inline, as it is asked twice a message.
  int node_of(int rank) { return static_cast<std::size_t>(rank) < nodes_.size() ? nodes_[rank] : new_node_of(rank); }
  const Machine& machine() const { return machine_; }
  // Whether a message between these ranks is priced by the on-node transit instead of a flow:
  // on one node without a memory link (machine.hpp).
  bool priced_on_node(int src_rank, int dst_rank) {
    return on_node_ && node_of(src_rank) == node_of(dst_rank) && !router_.has_memory(node_of(src_rank));
  }
  double on_node_transit(double bytes) const { return on_node_(bytes); }
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
  Sharing sharing_;
  OnNodeTransit on_node_;
  // Programs send between few pairs of nodes again and again (a ring, a stencil): routing each
  // message anew was a fifth of a torus simulation. Bounded, so an all-to-all on many nodes
  // cannot fill the memory with routes.
  std::unordered_map<std::uint64_t, Route> routes_;
  static constexpr std::size_t kMaxRoutes = 1 << 20;
  // By source node: its latest route, found without hashing when a node sends to the same
  // neighbour again (a ring: every message), its channels copied here when few: reading them
  // through the hash node and its channel list was two cache misses a message on a 4,096-node
  // torus, where this table is read in node order.
  static constexpr std::uint32_t kFewHops = 5;
  struct Latest {
    int to = -1;
    std::uint32_t hops = 0;
    double latency = 0;
    std::uint32_t few[kFewHops] = {};
    const Route* route = nullptr;
    std::span<const std::uint32_t> channels() const {
      return hops <= kFewHops ? std::span<const std::uint32_t>(few, hops) : std::span<const std::uint32_t>(route->channels);
    }
  };
  std::vector<Latest> latest_;
  const Route& route(int src_rank, int dst_rank);
  const Latest& latest_route(int src_rank, int dst_rank);
  std::vector<Arrival> arrivals_;
  std::vector<int> nodes_;  // by rank, filled as ranks appear
  int new_node_of(int rank);
  std::vector<std::pair<std::uint32_t, double>> flows_;  // by flow id: message, latency still to add
  // Sharing::rtt: flows waiting out their latency, the earliest first.
  struct Waiting {
    double start;
    std::uint64_t order;  // equal starts in the order sent
    std::uint32_t message;
    int src_rank, dst_rank;  // the route is looked up again: the cache may be cleared meanwhile
    double bytes;
    bool operator>(const Waiting& o) const { return start > o.start || (start == o.start && order > o.order); }
  };
  std::vector<Waiting> waiting_;  // a min-heap
  std::uint64_t sent_ = 0;
  void start_flow(double now, std::uint32_t message, std::span<const std::uint32_t> channels, double latency, double bytes);
  std::unique_ptr<LinkUsage> usage_;
};

}  // namespace augur::sim
