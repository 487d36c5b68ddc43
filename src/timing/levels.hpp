#pragma once
// The timing rules of a machine of nodes (docs/nodes.md): a message between two ranks of one
// node priced by the on-node level's laws, any other by the between-nodes level's; a collective
// by the law measured at its nodes × ranks a node when the model has one, else by a composition
// of the two levels. A model of one level (every model without `nodes`) prices everything as
// the rules alone do, whatever the placement: one rank a node is what it was measured as.
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/model.hpp"
#include "timing/placement.hpp"
#include "timing/rules.hpp"

namespace augur::timing {

// How a collective at a placement is priced.
enum class CollectivePricing {
  one_level,         // a model of one level: its law at p, as always
  one_rank_a_node,   // the between-nodes law at p (the placement holds one rank a node)
  measured,          // the law measured at that many ranks a node
  composed,          // on-node phase, between-nodes phase, on-node phase
};

template <class V>
class BasicLevelRules {
 public:
  BasicLevelRules(const model::Model& model, Placement placement, model::Bound bound = model::Bound::avg);
  BasicLevelRules(const BasicLevelRules&) = delete;
  BasicLevelRules& operator=(const BasicLevelRules&) = delete;

  bool two_levels() const { return on_node_ != nullptr; }
  const Placement& placement() const { return placement_; }
  BasicRules<V>& between_nodes() { return between_; }
  const BasicRules<V>& between_nodes() const { return between_; }
  // The rules of two ranks of one node; the between-nodes ones for a model of one level.
  const BasicRules<V>& on_node() const { return on_node_ ? *on_node_ : between_; }
  // The rules that price a message between ranks a and b (world ranks).
  const BasicRules<V>& pair(int a, int b) const {
    return on_node_ && placement_.same_node(a, b) ? *on_node_ : between_;
  }

  // The rules of every level, each with the words a report gives it: "" between nodes, "on one
  // node", "at K ranks a node" (a measured placement's collectives). What each extrapolated or
  // stood in for is theirs.
  std::vector<std::pair<std::string, const BasicRules<V>*>> each_level() const;

  // As BasicRules::price_unanswered_as_zero, for the rules of every level and placement.
  void price_unanswered_as_zero(const typename BasicRules<V>::Unanswered& tell);

  CollectivePricing pricing(std::string_view op, NodesAndRanks shape) const;
  // T_op of a collective over `p` ranks lying as `shape` says (the rules' per-role times apply).
  V collective_duration(std::string_view op, int p, NodesAndRanks shape, double bytes, bool is_root) const;
  V collective_duration(std::string_view op, std::span<const int> ranks, double bytes, bool is_root) const {
    return collective_duration(op, static_cast<int>(ranks.size()), placement_.shape(ranks), bytes, is_root);
  }

 private:
  const model::Model& model_;
  Placement placement_;
  BasicRules<V> between_;
  std::unique_ptr<model::Model> on_node_model_;
  std::unique_ptr<BasicRules<V>> on_node_;
  // One model and its rules per measured number of ranks a node (the model's placements).
  std::map<int, std::unique_ptr<model::Model>> placement_models_;
  std::map<int, std::unique_ptr<BasicRules<V>>> placement_rules_;

  V composed(std::string_view op, NodesAndRanks shape, double bytes, bool is_root) const;
};

extern template class BasicLevelRules<double>;
extern template class BasicLevelRules<Times>;

using LevelRules = BasicLevelRules<double>;
using BoundsLevelRules = BasicLevelRules<Times>;

// Whether the model's placement of `ranks_per_node` measured `op` (or what it is the
// non-blocking form or a role of).
bool measured_at(const model::Model& model, int ranks_per_node, std::string_view op);

// The ranks a leader of a node carries in the between-nodes phase of a composed collective:
// the node's k ranks' data for the operations whose data grows with the group (gather, scatter,
// allgather, alltoall and their v- and non-blocking forms), one rank's otherwise.
bool gathers_node_data(std::string_view op);

}  // namespace augur::timing
