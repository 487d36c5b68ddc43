#pragma once
// Machines composed of generated parts (docs/machine-format.md, "Composed machines"): two fat
// trees and a backbone, say, without listing every link. The parts stand side by side: their
// nodes in part order, then the machine's own switches, then each part's switches in part order.
// Routes are shortest paths over the whole graph.
#include <string_view>
#include <vector>

#include "sim/network/machine.hpp"

namespace augur::sim {

struct Composition {
  Machine machine;
  std::vector<int> node_offset, switch_offset;  // by part: its first node, its first switch (vertex)
  std::vector<int> nodes, switches;             // by part

  // The vertex "pK.nI" (part K's node I) or "pK.sJ" (its switch J) names; throws
  // std::invalid_argument saying why when it names none.
  int part_vertex(std::string_view name) const;
};

// The parts joined by nothing yet, with `own_switches` switches of the machine's own (s0 …) for
// the links that join them.
Composition compose(const std::vector<Machine>& parts, int own_switches);

}  // namespace augur::sim
