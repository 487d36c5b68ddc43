#pragma once
// A partial model, for a program whose calls follow no rule the learner knows (ranks that each do
// something of their own, data-dependent exchanges): its collectives over the whole world, which
// every rank calls in one order, are kept as calls, and everything a rank does between two of
// them (computes, point-to-point calls, collectives on smaller communicators) becomes one block of
// time: the time the slowest rank took from the end of the one to the beginning of the next, the
// time the next collective waited for. The blocks then become laws in p as computes do.
//
// What a block folds is the part not learned as calls: it does not answer the network or the
// model's laws (a faster network does not shorten it), and its time at a new count is its law's.
// The share of each run's time in blocks says how much of a prediction that is.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "learn/learner.hpp"
#include "trace/trace.hpp"

namespace augur::learn {

struct TimeBlocks {
  RankSequences sequences;  // per rank: block, world collective, block, …, block
  std::uint64_t folded_calls = 0;               // MPI calls inside the blocks, over all ranks
  std::map<std::string, std::uint64_t> folded;  // the same by call
  std::size_t unshared_world_calls = 0;         // world collectives folded since not every count calls them
  double blocks = 0, run = 0;  // seconds: the blocks' (each its slowest rank's) and the run's
  double share() const { return run > 0 ? blocks / run : 0; }
};

// Throws LearnError when the ranks call the world's collectives in different orders, naming the
// first two that part and where. Without `keep_rooted`, collectives with a root are folded too.
TimeBlocks time_blocks(const trace::Trace& trace, const std::string& label, bool keep_rooted = true);

// The blocks of several counts of one program, between the world collectives every count calls
// (the longest common subsequence of their operations, rooted or not); the others are folded.
// Throws LearnError as the one-trace form does, and when no world collective is common to all.
std::vector<TimeBlocks> time_blocks(const std::vector<trace::Trace>& traces, const std::vector<std::string>& labels,
                                    bool keep_rooted = true);

// What a partial model folded, per traced count, for the report and the model file.
struct FoldedAt {
  std::string label;
  int p = 0;
  std::uint64_t calls = 0;
  std::map<std::string, std::uint64_t> by_call;
  double share = 0;
};

// The program learned from each run's blocks (learn_program), with what was folded at each count;
// where that fails, from blocks that fold the world's collectives with a root too (a note says
// why). Throws LearnError when neither is learned, with the first reason (the first difference
// of the world's collectives between counts, a root that follows no rule).
Learned learn_time_blocks(const std::vector<trace::Trace>& traces, const std::vector<LearnRun>& runs,
                          const std::string& parameter, std::vector<FoldedAt>& folded);

}  // namespace augur::learn
