#pragma once
// A block of calls a rank makes only at some counts (the swaps along a dimension the grid splits
// only from p = 4 on; LAMMPS copies its own ghosts where a dimension has one rank) is a loop of
// zero iterations at the counts that lack it. Before the runs are aligned, each count's body is
// aligned with the longest one (the longest common subsequence of their steps, calls compared as
// first_difference compares them, loops with loops, the gaps as late as they can be); each
// stretch the longest body has and another lacks becomes a loop that runs 0 times there, split
// where any other count's stretch starts or ends, so that every count holds the same loops. Its
// count is then learned as a law (0 at p = 2, 1 from p = 4: [dims(p, 3, 1) > 1]) and its calls
// from the counts that make them; fold_single_iterations makes the copies present there loops of
// one.
#include <string>
#include <vector>

#include "learn/single_iterations.hpp"

namespace augur::learn {

// A block absent at some counts: the MPI call it starts with and the counts that lack it.
struct AbsentBlock {
  std::string first_call;  // "MPI_Sendrecv"
  std::vector<int> absent_at;
};

// Inserts the loops of zero in place (not in a group of one rank); returns the blocks, for the
// report.
std::vector<AbsentBlock> insert_absent_blocks(const std::vector<GroupBody>& bodies);

}  // namespace augur::learn
