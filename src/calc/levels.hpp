#pragma once
// `augur calc` on a machine of nodes (docs/nodes.md): the law that answers an operation at a
// placement, or the composition of the two levels for a collective measured at none like it.
#include <optional>
#include <string>

#include "model/model.hpp"
#include "timing/placement.hpp"

namespace augur::calc {

// The law of a machine of nodes that prices `op` at `shape`, with `level` saying which it is; nullptr
// when the model's own (between-nodes) law does, `level` then saying why (empty for a model of
// one level).
const model::Operation* law_at_placement(const model::Model& model, const std::string& op,
                                         timing::NodesAndRanks shape, std::string& level);

struct Composed {
  model::Estimate seconds;
  std::string equation;  // the phases, in the names of the model's laws
  std::string level;
};
// A collective at a number of ranks a node the model measured nothing at: the timing rules'
// composition (timing/levels.hpp), so that calc, run and sim agree. None when a law answers.
std::optional<Composed> composed_answer(const model::Model& model, const std::string& op, double p,
                                        const timing::Placement& placement, timing::NodesAndRanks shape, double bytes);

}  // namespace augur::calc
