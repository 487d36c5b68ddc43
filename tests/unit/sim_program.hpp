#pragma once
// Programs for the simulator's and the analysis' tests, written as one operation list per rank.
#include <vector>

#include "sim/program.hpp"

namespace augur_test {

// A program whose rank r runs bodies[r].
inline augur::sim::FlatProgram program(const std::vector<std::vector<augur::sim::Op>>& bodies) {
  augur::sim::FlatProgram p(static_cast<int>(bodies.size()));
  for (int r = 0; r < static_cast<int>(bodies.size()); ++r) p.assign(r, r, p.add_body(bodies[r]));
  return p;
}

}  // namespace augur_test
