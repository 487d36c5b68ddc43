#pragma once
// A block of calls repeated a number of times that is itself a law in p (a halo's swaps along a
// dimension: one while the subdomain is wider than the cutoff, two once it is narrower) is a loop
// at the counts where it repeats and the block alone where it runs once, since compressing a
// rank's calls finds no loop in a single copy. Before the runs are aligned, such a block is
// folded into a loop of one iteration wherever another run has the loop at that step and the
// block's calls match its body, so the loop's count is learned as a law (1 at p = 8, 2 at 16).
#include <string>
#include <vector>

#include "learn/rank_groups.hpp"
#include "learn/rank_sequences.hpp"

namespace augur::learn {

// One group's body in each run, with the sequences their calls' names are read from; the
// bodies are changed in place.
struct GroupBody {
  std::vector<SampleNode>* body;
  const RankSequences* sequences;
  std::size_t members;  // the group's ranks in that run
  int p;                // the run's process count
};

// A block folded into a loop of one: the MPI call it starts with and the counts that ran it once.
struct FoldedBlock {
  std::string first_call;  // "MPI_Sendrecv"
  std::vector<int> once_at;
};

// The bodies of the loops at step i of `bodies` (those that have a loop there), to walk them alike.
std::vector<GroupBody> loops_at(const std::vector<GroupBody>& bodies, std::size_t i);

// A loop run once over `length` steps of `body` from `at`, moved into it (each member once).
SampleNode loop_of_one(std::vector<SampleNode>& body, std::size_t at, std::size_t length, std::size_t members);

// The blocks folded, for the report to say what the learning took as a loop of one.
std::vector<FoldedBlock> fold_single_iterations(const std::vector<GroupBody>& bodies);

}  // namespace augur::learn
