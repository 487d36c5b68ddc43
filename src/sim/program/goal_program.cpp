// The GOAL graph in compressed rows: each vertex's dependents in one array, so a million
// ranks' schedule costs a few words per vertex and per dependency.
#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/program/goal.hpp"

namespace augur::sim {

GoalProgram::GoalProgram(int nranks, std::vector<GoalVertex> vertices, const std::vector<GoalDependency>& dependencies)
    : nranks_(nranks), vertices_(std::move(vertices)) {
  const auto n = static_cast<std::uint32_t>(vertices_.size());
  rank_first_.assign(static_cast<std::size_t>(nranks) + 1, 0);
  for (std::uint32_t v = 0; v < n; ++v) {
    const auto rank = vertices_[v].rank;
    if (rank < 0 || rank >= nranks || (v > 0 && rank < vertices_[v - 1].rank))
      throw std::invalid_argument(fmt::format("GOAL vertex {}: rank {} out of order or outside the {} ranks", v, rank, nranks));
    ++rank_first_[static_cast<std::size_t>(rank) + 1];
  }
  for (int r = 0; r < nranks; ++r) rank_first_[r + 1] += rank_first_[r];
  dependents_first_.assign(std::size_t(n) + 1, 0);
  dependency_count_.assign(n, 0);
  for (const auto& d : dependencies) {
    if (d.vertex >= n || d.on >= n || vertices_[d.vertex].rank != vertices_[d.on].rank)
      throw std::invalid_argument(fmt::format("GOAL dependency {} on {}: not two vertices of one rank", d.vertex, d.on));
    ++dependents_first_[d.on + 1];
    ++dependency_count_[d.vertex];
  }
  for (std::uint32_t v = 0; v < n; ++v) dependents_first_[v + 1] += dependents_first_[v];
  dependents_.resize(dependencies.size());
  auto fill = dependents_first_;
  for (const auto& d : dependencies) dependents_[fill[d.on]++] = d.vertex << 1 | (d.started ? 1u : 0u);
}

// Kahn's order removes every vertex not on or behind a cycle; from any vertex left, walking back
// through dependencies that are left must come round to a vertex already seen.
std::vector<std::size_t> find_cycle(std::size_t nvertices, const std::vector<GoalDependency>& dependencies) {
  std::vector<std::uint32_t> waiting(nvertices, 0), first(nvertices + 1, 0), out(dependencies.size());
  for (const auto& d : dependencies) {
    ++waiting[d.vertex];
    ++first[d.on + 1];
  }
  for (std::size_t v = 0; v < nvertices; ++v) first[v + 1] += first[v];
  auto fill = first;
  for (std::size_t i = 0; i < dependencies.size(); ++i) out[fill[dependencies[i].on]++] = static_cast<std::uint32_t>(i);
  std::vector<std::uint32_t> ready;
  for (std::size_t v = 0; v < nvertices; ++v)
    if (waiting[v] == 0) ready.push_back(static_cast<std::uint32_t>(v));
  while (!ready.empty()) {
    const auto v = ready.back();
    ready.pop_back();
    for (auto i = first[v]; i < first[v + 1]; ++i)
      if (--waiting[dependencies[out[i]].vertex] == 0) ready.push_back(dependencies[out[i]].vertex);
  }
  std::vector<std::size_t> into(nvertices, dependencies.size());  // a dependency of each vertex left
  std::size_t start = nvertices;
  for (std::size_t i = 0; i < dependencies.size(); ++i) {
    const auto& d = dependencies[i];
    if (waiting[d.vertex] > 0 && waiting[d.on] > 0) {
      into[d.vertex] = i;
      start = d.vertex;
    }
  }
  if (start == nvertices) return {};
  std::vector<std::size_t> seen_at(nvertices, dependencies.size()), path;
  std::size_t v = start;
  while (seen_at[v] == dependencies.size()) {
    seen_at[v] = path.size();
    path.push_back(into[v]);
    v = dependencies[into[v]].on;
  }
  std::vector<std::size_t> cycle(path.begin() + static_cast<std::ptrdiff_t>(seen_at[v]), path.end());
  std::reverse(cycle.begin(), cycle.end());
  // From its first dependency in the file, so the same cycle is always told the same way.
  std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()), cycle.end());
  return cycle;
}

}  // namespace augur::sim
