#pragma once
// Routes over a machine's graph (machine.hpp). A route is the list of channels a message uses:
// a full-duplex link is two channels, one per direction, each with the link's bandwidth; a
// half-duplex or shared link (a bus) is one channel for every transfer on it.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/network/machine.hpp"

namespace augur::sim {

struct Route {
  std::vector<std::uint32_t> channels;
  double latency = 0;  // the links' latencies plus the machine's cost per hop
};

// Whether `channel` carries traffic: a half-duplex or shared link has only its first.
bool is_channel(const Machine& machine, std::uint32_t channel);
// A channel as the machine names its ends: "n1→s0" for one direction of a full-duplex link,
// "n1–s0" for a half-duplex one, "shared link 3 (n0 n1 n2)" for a medium.
std::string channel_name(const Machine& machine, std::uint32_t channel);

class Router {
 public:
  explicit Router(Machine machine);

  Route route(int from, int to) const;  // between vertices; from a node to itself, its memory if any
  bool has_memory(int node) const { return memory_[node] >= 0; }
  std::size_t channels() const { return 2 * machine_.links.size(); }
  double capacity(std::uint32_t channel) const { return machine_.links[channel / 2].bandwidth; }

 private:
  struct Hop {
    int link, to;
  };
  void add(Route& r, int link, int from) const;
  int link_between(int a, int b) const;
  Route dimension_order(int from, int to) const;
  Route shortest(int from, int to) const;
  Route up_down(int from, int to) const;
  Route dragonfly(int from, int to) const;
  const std::vector<int>& breadth_first(int to, unsigned kind, bool climbs) const;
  const std::vector<int>& distances(int to) const;            // hops to `to`, any path
  const std::vector<int>& down_distances(int to) const;       // hops to `to` going only down
  const std::vector<int>& up_down_distances(int to) const;    // hops to `to` going up, then down

  Machine machine_;  // a copy: a router outlives the description it was made from
  std::vector<std::vector<Hop>> adjacent_;
  std::unordered_map<std::uint64_t, int> links_;  // (lower vertex, higher vertex) -> first link
  std::vector<int> memory_;  // by compute node: its memory link (machine.hpp), or −1
  mutable std::unordered_map<std::uint64_t, std::vector<int>> distances_;  // by (kind, destination)
};

}  // namespace augur::sim
