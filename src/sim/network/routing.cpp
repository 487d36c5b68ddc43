#include "sim/network/routing.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace augur::sim {
namespace {

constexpr int kFar = std::numeric_limits<int>::max();

std::uint64_t pair_key(int a, int b) {
  if (a > b) std::swap(a, b);
  return std::uint64_t(std::uint32_t(a)) << 32 | std::uint32_t(b);
}

}  // namespace

bool is_channel(const Machine& m, std::uint32_t channel) {
  const auto& link = m.links[channel / 2];
  return channel % 2 == 0 || (link.full_duplex && !link.shared && !is_memory(link));
}

std::string channel_name(const Machine& m, std::uint32_t channel) {
  const auto& link = m.links[channel / 2];
  if (is_memory(link)) return vertex_name(m, link.ends[0]) + " memory";
  if (link.shared || link.ends.size() != 2) {
    std::vector<std::string> ends;
    for (std::size_t i = 0; i < link.ends.size(); ++i)
      if (link.ends.size() <= 4 || i < 2 || i + 1 == link.ends.size())
        ends.push_back((i == 2 && link.ends.size() > 4 ? "… " : "") + vertex_name(m, link.ends[i]));
    return fmt::format("shared link {} ({})", channel / 2, fmt::join(ends, " "));
  }
  const bool reverse = channel % 2 == 1;
  const auto from = vertex_name(m, link.ends[reverse ? 1 : 0]), to = vertex_name(m, link.ends[reverse ? 0 : 1]);
  return fmt::format("{}{}{}", from, link.full_duplex ? "→" : "–", to);
}

Router::Router(Machine machine)
    : machine_(std::move(machine)), adjacent_(machine_.vertices()), memory_(machine_.nodes(), -1) {
  for (int l = 0; l < static_cast<int>(machine_.links.size()); ++l) {
    const auto& ends = machine_.links[l].ends;
    if (is_memory(machine_.links[l])) memory_[ends[0]] = l;
    for (int a : ends)
      for (int b : ends)
        if (a != b) {
          adjacent_[a].push_back({l, b});
          links_.try_emplace(pair_key(a, b), l);
        }
  }
}

void Router::add(Route& r, int link, int from) const {
  const auto& l = machine_.links[link];
  const bool reverse = l.full_duplex && !l.shared && from != l.ends[0];
  r.channels.push_back(2 * static_cast<std::uint32_t>(link) + (reverse ? 1 : 0));
  r.latency += l.latency + machine_.hop_latency;
}

int Router::link_between(int a, int b) const {
  auto it = links_.find(pair_key(a, b));
  if (it == links_.end()) throw std::logic_error(fmt::format("routing: no link between vertices {} and {}", a, b));
  return it->second;
}

Route Router::route(int from, int to) const {
  if (from == to) {
    Route r;
    if (from < machine_.nodes() && memory_[from] >= 0) add(r, memory_[from], from);
    return r;
  }
  switch (machine_.routing) {
    case Routing::dimension_order: return dimension_order(from, to);
    case Routing::up_down: return up_down(from, to);
    case Routing::dragonfly: return dragonfly(from, to);
    case Routing::shortest: break;
  }
  return shortest(from, to);
}

// Each dimension in turn, fastest first; round a torus the shorter way (forward on a tie).
Route Router::dimension_order(int from, int to) const {
  Route r;
  int v = from, stride = 1;
  for (int side : machine_.dims) {
    const int target = (to / stride) % side;
    int x = (v / stride) % side;
    const int forward = (target - x + side) % side;
    const bool up = machine_.wraps ? forward <= side - forward : target > x;
    while (x != target) {
      const int next = up ? (x + 1) % side : (x + side - 1) % side;
      const int u = v + (next - x) * stride;
      add(r, link_between(v, u), v);
      v = u;
      x = next;
    }
    stride *= side;
  }
  return r;
}

// Minimal: within the group to the router that holds the global link (the router at its position
// in this chassis, then that chassis), across it, then within the destination's group to its
// router likewise: the route SimGrid's DRAGONFLY zone takes. Routers are vertices nodes + g·C·R
// + c·R + b (topologies.hpp).
Route Router::dragonfly(int from, int to) const {
  const int nodes = machine_.nodes(), per_router = machine_.dims[0], routers = machine_.dims[1];
  const int per_group = routers * machine_.dims[2];
  Route r;
  int at = nodes + from / per_router;
  add(r, link_between(from, at), from);
  auto hop = [&](int next) {
    if (next == at) return;
    add(r, link_between(at, next), at);
    at = next;
  };
  // The router of `goal`'s position in this chassis, then `goal`'s chassis (both in at's group).
  auto within_group = [&](int goal) {
    const int here = at - nodes, there = goal - nodes;
    const int group = here / per_group * per_group, position = there % routers;
    hop(nodes + group + here % per_group / routers * routers + position);
    hop(nodes + group + there % per_group / routers * routers + position);
  };
  const int source_group = (at - nodes) / per_group, target = nodes + to / per_router;
  const int target_group = (target - nodes) / per_group;
  if (source_group != target_group) {
    within_group(nodes + source_group * per_group + target_group);
    hop(nodes + target_group * per_group + source_group);
  }
  within_group(target);
  add(r, link_between(at, to), at);
  return r;
}

// Hops from every vertex to `to`, breadth first from `to` over the links `climbs` allows;
// cached under `kind`.
const std::vector<int>& Router::breadth_first(int to, unsigned kind, bool climbs) const {
  auto [it, fresh] = distances_.try_emplace(std::uint64_t(to) << 2 | kind);
  if (!fresh) return it->second;
  auto& d = it->second;
  d.assign(machine_.vertices(), kFar);
  std::deque<int> queue{to};
  d[to] = 0;
  while (!queue.empty()) {
    const int v = queue.front();
    queue.pop_front();
    for (auto [link, u] : adjacent_[v])
      if (d[u] == kFar && (!climbs || machine_.level[u] > machine_.level[v])) d[u] = d[v] + 1, queue.push_back(u);
  }
  return d;
}

const std::vector<int>& Router::distances(int to) const { return breadth_first(to, 0, false); }

// A path that only goes down ends at `to`: walked backwards from `to`, it only climbs.
const std::vector<int>& Router::down_distances(int to) const { return breadth_first(to, 1, true); }

// Up, then down: the best of going down from here and climbing one link first, settled from
// the highest level to the lowest.
const std::vector<int>& Router::up_down_distances(int to) const {
  auto [it, fresh] = distances_.try_emplace(std::uint64_t(to) << 2 | 2);
  if (!fresh) return it->second;
  const auto& down = down_distances(to);
  const auto& level = machine_.level;
  std::vector<int> order(machine_.vertices());
  for (int v = 0; v < machine_.vertices(); ++v) order[v] = v;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return level[a] > level[b]; });
  std::vector<int> d(down);
  for (int v : order)
    for (auto [link, u] : adjacent_[v])
      if (level[u] > level[v] && d[u] != kFar) d[v] = std::min(d[v], d[u] + 1);
  return distances_[std::uint64_t(to) << 2 | 2] = std::move(d);
}

// Where several next hops are equally short, the destination picks one, digit by digit in the
// mixed radix of the choices: on a fat tree that is d-mod-k routing, which spreads the flows
// to different destinations over the upper links.
Route Router::shortest(int from, int to) const {
  const auto& d = distances(to);
  if (d[from] == kFar) throw std::invalid_argument(fmt::format("routing: vertex {} cannot reach vertex {}", from, to));
  Route r;
  int choice = to;
  for (int v = from; v != to;) {
    std::vector<Hop> next;
    for (auto hop : adjacent_[v])
      if (d[hop.to] == d[v] - 1) next.push_back(hop);
    const auto pick = next[choice % next.size()];
    choice /= static_cast<int>(next.size());
    add(r, pick.link, v);
    v = pick.to;
  }
  return r;
}

Route Router::up_down(int from, int to) const {
  const auto& any = up_down_distances(to);
  const auto& down = down_distances(to);
  if (any[from] == kFar) throw std::invalid_argument(fmt::format("routing: vertex {} cannot reach vertex {} up then down", from, to));
  const auto& level = machine_.level;
  Route r;
  int choice = to;
  int v = from;
  while (down[v] != any[v]) {  // climbing still shortens the way
    std::vector<Hop> next;
    for (auto hop : adjacent_[v])
      if (level[hop.to] > level[v] && any[hop.to] == any[v] - 1) next.push_back(hop);
    const auto pick = next[choice % next.size()];
    choice /= static_cast<int>(next.size());
    add(r, pick.link, v);
    v = pick.to;
  }
  while (v != to) {
    for (auto hop : adjacent_[v])
      if (level[hop.to] < level[v] && down[hop.to] == down[v] - 1) {
        add(r, hop.link, v);
        v = hop.to;
        break;
      }
  }
  return r;
}

}  // namespace augur::sim
