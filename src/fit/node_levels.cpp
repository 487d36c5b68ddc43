#include "fit/node_levels.hpp"

#include <algorithm>

#include "model/catalog.hpp"

namespace augur::fit {

int level_of(const Measurement& m) {
  if (m.per_node() == 1) return 1;
  const auto* info = model::find_operation_info(m.op);
  const bool pairwise = info && (info->cls == model::OperationClass::point_to_point || info->cls == model::OperationClass::local);
  if (pairwise && m.nodes == 1 && m.p == 2) return kOnNodeLevel;
  return m.ranks_per_node;
}

bool measured_across_nodes(const std::vector<Measurement>& points) {
  return std::any_of(points.begin(), points.end(), [](const Measurement& m) { return m.placed() && m.nodes >= 2; });
}

std::map<int, std::vector<Measurement>> split_by_level(const std::vector<Measurement>& points) {
  std::map<int, std::vector<Measurement>> out;
  const bool across = measured_across_nodes(points);
  for (const auto& m : points) out[across ? level_of(m) : 1].push_back(m);
  return out;
}

int node_size(const std::vector<Measurement>& points, int header_ranks_per_node) {
  int size = std::max(2, header_ranks_per_node);
  for (const auto& m : points) size = std::max(size, m.per_node());
  return size;
}

}  // namespace augur::fit
