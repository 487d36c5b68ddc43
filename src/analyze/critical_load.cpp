#include "analyze/critical_load.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

namespace augur::analyze {
namespace {

// Each message's bytes over every channel of its route, at that channel's bandwidth.
std::vector<LinkLoad> link_loads(const Dependencies& deps, const MessageCosts& costs) {
  const auto* router = costs.router();
  const auto* machine = costs.machine();
  std::vector<LinkLoad> loads(router->channels());
  for (const auto& m : deps.messages) {
    const int from = machine->node_of(m.src), to = machine->node_of(m.dst);
    for (auto c : router->route(from, to).channels) {
      loads[c].seconds += m.bytes / router->capacity(c);
      ++loads[c].messages;
    }
  }
  for (std::uint32_t c = 0; c < loads.size(); ++c) loads[c].name = sim::channel_name(*machine, c);
  std::erase_if(loads, [](const LinkLoad& l) { return l.messages == 0; });
  std::stable_sort(loads.begin(), loads.end(), [](const LinkLoad& a, const LinkLoad& b) { return a.seconds > b.seconds; });
  return loads;
}

}  // namespace

CriticalLoad critical_load(const Dependencies& deps, const CriticalPath& path, const MessageCosts& costs) {
  CriticalLoad out;
  const auto& busy = path.busy;
  if (!busy.empty()) {
    const auto it = std::max_element(busy.begin(), busy.end());
    out.busiest_rank = static_cast<int>(it - busy.begin());
    out.busiest_rank_load = *it;
    out.even_spread = std::accumulate(busy.begin(), busy.end(), 0.0) / double(busy.size());
  }
  out.load = out.busiest_rank_load;
  out.resource = fmt::format("rank {}", out.busiest_rank);
  if (costs.router()) out.links = link_loads(deps, costs);
  if (!out.links.empty() && out.links.front().seconds > out.load) {
    out.load = out.links.front().seconds;
    out.resource = out.links.front().name;
    out.on_link = true;
  }
  return out;
}

}  // namespace augur::analyze
