// `augur calc` on a machine of nodes (docs/nodes.md): which of its laws answers a question at
// a placement, or how the two levels compose when none was measured there.
#include "calc/levels.hpp"

#include <bit>
#include <limits>

#include <fmt/format.h>

#include "model/catalog.hpp"
#include "timing/levels.hpp"

namespace augur::calc {
namespace {

bool pairwise(const std::string& op) {
  const auto* info = model::find_operation_info(op);
  return info && (info->cls == model::OperationClass::point_to_point || info->cls == model::OperationClass::local);
}

const model::Operation* found(const model::Operations& ops, const std::string& name) {
  const auto it = ops.find(name);
  return it == ops.end() ? nullptr : &it->second;
}

std::string composed_equation(const std::string& op, timing::NodesAndRanks shape, double bytes) {
  const int hops = std::bit_width(static_cast<unsigned>(shape.ranks_per_node - 1));
  const auto form = timing::shape_of(op);
  const std::string tree = fmt::format("{}·pingpong_on_node(d)", hops);
  std::string eq;
  if (form != timing::CollectiveShape::one_to_all) eq = tree;
  if (shape.nodes > 1) {
    const std::string size = timing::gathers_node_data(op) ? fmt::format("{}·d", shape.ranks_per_node) : "d";
    eq += fmt::format("{}{}(p={}, {})", eq.empty() ? "" : " + ", op, shape.nodes, size);
  }
  if (form != timing::CollectiveShape::all_to_one) eq += (eq.empty() ? "" : " + ") + tree;
  return eq + fmt::format("   (d = {} B)", bytes);
}

}  // namespace

const model::Operation* law_at_placement(const model::Model& model, const std::string& op,
                                         timing::NodesAndRanks shape, std::string& level) {
  if (!model.nodes) return nullptr;
  if (pairwise(op)) {
    if (shape.nodes > 1 || shape.ranks_per_node < 2) {
      level = "between nodes";
      return nullptr;
    }
    level = "on one node";
    if (const auto* law = found(model.nodes->on_node, op)) return law;
    level = "on one node, priced by the between-nodes law (the on-node level has none of " + op + ")";
    return nullptr;
  }
  if (shape.ranks_per_node < 2) {
    level = "one rank a node";
    return nullptr;
  }
  const auto at = model.nodes->placements.find(shape.ranks_per_node);
  if (at != model.nodes->placements.end())
    if (const auto* law = found(at->second, op)) {
      level = fmt::format("measured at {} ranks a node", shape.ranks_per_node);
      return law;
    }
  return nullptr;
}

std::optional<Composed> composed_answer(const model::Model& model, const std::string& op, double p,
                                        const timing::Placement& placement, timing::NodesAndRanks shape, double bytes) {
  if (!model.nodes || pairwise(op) || shape.ranks_per_node < 2) return std::nullopt;
  if (timing::measured_at(model, shape.ranks_per_node, op)) return std::nullopt;
  timing::BoundsLevelRules rules(model, placement);
  const int ranks = p < std::numeric_limits<int>::max() ? static_cast<int>(p) : std::numeric_limits<int>::max();
  const auto t = rules.collective_duration(op, ranks, shape, bytes, false);
  Composed c;
  c.seconds = {t[model::Bound::min], t[model::Bound::avg], t[model::Bound::max]};
  c.equation = composed_equation(op, shape, bytes);
  c.level = fmt::format("composed: no law measured at {} ranks a node (on-node phase, between-nodes phase, on-node phase)",
                        shape.ranks_per_node);
  return c;
}

}  // namespace augur::calc
