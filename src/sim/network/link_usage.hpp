#pragma once
// When each channel of a machine was busy, recorded from the flows of `--network topology`
// (transfers.hpp) when utilisation is asked for: a channel is busy while at least one flow
// crosses it. Every flow in flight has a non-zero rate (max-min shares of positive bandwidths),
// so these are the times it carried data. Flows of no bytes or no channels occupy nothing.
#include <cstdint>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/network/machine.hpp"
#include "trace/utilisation.hpp"

namespace augur::sim {

class LinkUsage {
 public:
  explicit LinkUsage(std::size_t channels);

  // A message's flow over `channels`, and its end.
  void start(std::uint32_t message, double now, std::span<const std::uint32_t> channels, double bytes);
  void finish(std::uint32_t message, double now);

  struct Channel {
    double bytes = 0;                                // carried, summed over the flows that crossed it
    std::vector<std::pair<double, double>> busy;     // disjoint [begin, end), in time order
    std::uint32_t in_flight = 0;
  };
  const std::vector<Channel>& channels() const { return channels_; }

 private:
  std::vector<Channel> channels_;
  std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> routes_;  // by message in flight: its channels
};

// Each existing channel of `machine` (routing.hpp's numbering), named as the machine names its
// ends, with its busy time per interval of the grid [start + b·width, start + (b+1)·width) for
// b < bins.
std::vector<trace::LinkUtilisation> link_utilisation(const LinkUsage& usage, const Machine& machine, double start,
                                                     double width, int bins);

}  // namespace augur::sim
