#include "sim/network/link_usage.hpp"

#include <algorithm>

#include "sim/network/routing.hpp"

namespace augur::sim {

LinkUsage::LinkUsage(std::size_t channels) : channels_(channels) {}

void LinkUsage::start(std::uint32_t message, double now, std::span<const std::uint32_t> channels, double bytes) {
  if (!(bytes > 0) || channels.empty()) return;
  routes_[message].assign(channels.begin(), channels.end());
  for (auto c : channels) {
    auto& ch = channels_[c];
    ch.bytes += bytes;
    if (ch.in_flight++ > 0) continue;
    // Busy again the moment it went idle: one interval, not two.
    if (!ch.busy.empty() && ch.busy.back().second == now) continue;
    ch.busy.push_back({now, now});
  }
}

void LinkUsage::finish(std::uint32_t message, double now) {
  const auto it = routes_.find(message);
  if (it == routes_.end()) return;
  for (auto c : it->second) {
    auto& ch = channels_[c];
    if (--ch.in_flight == 0) ch.busy.back().second = now;
  }
  routes_.erase(it);
}

std::vector<trace::LinkUtilisation> link_utilisation(const LinkUsage& usage, const Machine& machine, double start,
                                                     double width, int bins) {
  std::vector<trace::LinkUtilisation> out;
  const double end = start + width * bins;
  const auto& channels = usage.channels();
  for (std::uint32_t c = 0; c < channels.size(); ++c) {
    if (!is_channel(machine, c)) continue;
    trace::LinkUtilisation l{channel_name(machine, c), machine.links[c / 2].bandwidth, channels[c].bytes, 0,
                             std::vector<double>(static_cast<std::size_t>(bins), 0.0)};
    for (auto [begin, until] : channels[c].busy) {
      const double from = std::max(begin, start), to = std::min(until, end);
      if (!(to > from)) continue;
      l.busy_seconds += to - from;
      trace::spread(l.busy, width, from - start, to - start, to - from);
    }
    l.busy = trace::fractions(std::move(l.busy), width);
    out.push_back(std::move(l));
  }
  return out;
}

}  // namespace augur::sim
