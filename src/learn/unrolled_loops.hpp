#pragma once
// A loop at one count that another count writes out call by call: a halo's two swaps along a
// dimension go to one neighbour where the dimension has two ranks (the next and the previous
// are the same rank, so the calls repeat and compress into a loop of two) and to two where it
// has more (two different calls). Before the runs are aligned, such a loop is laid out as its
// iterations wherever another count has those copies at its place, each copy keeping its own
// occurrences, so that every count has the same calls and their peers are learned per copy.
// Likewise a loop of k iterations of B where another count loops over copies of B (B B′, the
// swaps to one neighbour against those to two, as many times as the cutoff spans blocks) is rolled
// again as k/2 iterations of B B, so that its count is learned as a law (1 at p = 8, 2 at 16).
#include <vector>

#include "learn/single_iterations.hpp"

namespace augur::learn {

// Unrolls or rolls again those loops in place; returns how many.
std::size_t unroll_written_out_loops(const std::vector<GroupBody>& bodies);

}  // namespace augur::learn
