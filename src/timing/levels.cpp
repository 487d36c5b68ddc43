#include "timing/levels.hpp"

#include <algorithm>
#include <bit>
#include <utility>

namespace augur::timing {
namespace {

std::string_view without_i(std::string_view op) {
  return op.size() > 1 && op.front() == 'i' && op != "isend1" ? op.substr(1) : op;
}

}  // namespace

bool measured_at(const model::Model& model, int ranks_per_node, std::string_view op) {
  if (!model.nodes) return false;
  const auto it = model.nodes->placements.find(ranks_per_node);
  if (it == model.nodes->placements.end()) return false;
  const auto& ops = it->second;
  const std::string base(without_i(op));
  return ops.contains(op) || ops.contains(base) || ops.contains(base + "_root") || ops.contains(base + "_others");
}

bool gathers_node_data(std::string_view op) {
  const auto base = without_i(op);
  for (std::string_view family : {"gather", "scatter", "allgather", "alltoall"})
    if (base.starts_with(family)) return true;
  return false;
}

template <class V>
BasicLevelRules<V>::BasicLevelRules(const model::Model& model, Placement placement, model::Bound bound)
    : model_(model), placement_(std::move(placement)), between_(model, bound) {
  if (!model.nodes) return;
  on_node_model_ = std::make_unique<model::Model>(model.on_node_level());
  on_node_ = std::make_unique<BasicRules<V>>(*on_node_model_, bound);
  for (const auto& [per_node, ops] : model.nodes->placements) {
    auto measured = std::make_unique<model::Model>(model);
    measured->nodes.reset();
    for (const auto& [name, op] : ops) measured->operations.insert_or_assign(name, op);
    placement_rules_.emplace(per_node, std::make_unique<BasicRules<V>>(*measured, bound));
    placement_models_.emplace(per_node, std::move(measured));
  }
}

template <class V>
std::vector<std::pair<std::string, const BasicRules<V>*>> BasicLevelRules<V>::each_level() const {
  std::vector<std::pair<std::string, const BasicRules<V>*>> out{{"", &between_}};
  if (on_node_) out.emplace_back("on one node", on_node_.get());
  for (const auto& [per_node, rules] : placement_rules_)
    out.emplace_back(std::to_string(per_node) + " ranks a node", rules.get());
  return out;
}

template <class V>
void BasicLevelRules<V>::price_unanswered_as_zero(const typename BasicRules<V>::Unanswered& tell) {
  between_.price_unanswered_as_zero(tell);
  if (on_node_) on_node_->price_unanswered_as_zero(tell);
  for (auto& [_, rules] : placement_rules_) rules->price_unanswered_as_zero(tell);
}

template <class V>
CollectivePricing BasicLevelRules<V>::pricing(std::string_view op, NodesAndRanks shape) const {
  if (!on_node_) return CollectivePricing::one_level;
  if (shape.ranks_per_node <= 1) return CollectivePricing::one_rank_a_node;
  if (measured_at(model_, shape.ranks_per_node, op)) return CollectivePricing::measured;
  return CollectivePricing::composed;
}

template <class V>
V BasicLevelRules<V>::collective_duration(std::string_view op, int p, NodesAndRanks shape, double bytes,
                                          bool is_root) const {
  switch (pricing(op, shape)) {
    case CollectivePricing::one_level:
    case CollectivePricing::one_rank_a_node:
      return between_.collective_duration(op, p, bytes, is_root);
    case CollectivePricing::measured:
      return placement_rules_.at(shape.ranks_per_node)->collective_duration(op, p, bytes, is_root);
    case CollectivePricing::composed:
      break;
  }
  return composed(op, shape, bytes, is_root);
}

// A hierarchical collective, as MPI libraries run one over nodes of many ranks: the ranks of
// each node meet at a leader in a binomial tree of on-node messages (⌈log2 k⌉ of them), the
// leaders run the operation between nodes (the between-nodes law at p = nodes), and each
// leader hands the result to its node's ranks in a tree again. Operations that end at a root
// have no last phase, those that start at one no first; a node of one rank has neither.
template <class V>
V BasicLevelRules<V>::composed(std::string_view op, NodesAndRanks shape, double bytes, bool is_root) const {
  const auto k = static_cast<unsigned>(std::max(shape.ranks_per_node, 1));
  const double hops = std::bit_width(k - 1);  // ⌈log2 k⌉
  const V tree = hops * on_node_->transit(bytes);
  const CollectiveShape form = shape_of(op);
  V total = uniform<V>(0.0);
  if (form != CollectiveShape::one_to_all) total = total + tree;
  if (shape.nodes > 1) {
    const double carried = gathers_node_data(op) ? bytes * shape.ranks_per_node : bytes;
    total = total + between_.collective_duration(op, shape.nodes, carried, is_root);
  }
  if (form != CollectiveShape::all_to_one) total = total + tree;
  return total;
}

template class BasicLevelRules<double>;
template class BasicLevelRules<Times>;

}  // namespace augur::timing
