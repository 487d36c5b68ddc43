#pragma once
// Where two runs of one group stop doing the same: the first step, loops entered, at which one
// count's calls differ from another's, told as the calls themselves side by side (the trace, the
// rank, the call's place among the rank's calls, the MPI call, its peer and size), so a refusal
// points at the program's code rather than at a count of compressed steps.
#include <optional>
#include <string>

#include "learn/aligned.hpp"

namespace augur::learn {

// Whether two calls (or computes) are the same MPI call, peers, sizes and counts of requests
// aside; a wait also by the places it awaits.
bool same_call(const sim::Op& a, const RankSequences& sa, const sim::Op& b, const RankSequences& sb);

// The first difference between `a` and `b`, two runs of one group, or nothing when their bodies
// are the same steps (loop counts aside). The text is the lines that follow a group's name.
std::optional<std::string> first_difference(const GroupRun& a, const GroupRun& b);

// Where ranks `a` and `b` of one run stop making the same MPI calls (peers, sizes and repetitions
// aside): their first calls that differ, side by side, or nothing when every call is alike.
std::optional<std::string> where_ranks_part(const LearnRun& run, int a, int b);

// One member's call or compute as the refusal shows it: "tr-4, rank 0, call 13: MPI_Sendrecv to
// 1, from 3, 4 KiB". `node` null: the body ended, after `last` (null: before any call).
std::string describe_call(const GroupRun& run, const SampleNode* node, const SampleNode* last);

}  // namespace augur::learn
