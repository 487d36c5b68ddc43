#pragma once
// What the parts of `augur learn` that align the runs share: one group of one run, and one node
// of the group's body at every run (the alignment's column), with the names both report.
#include <string>
#include <vector>

#include "learn/learner.hpp"
#include "learn/rank_groups.hpp"

namespace augur::learn {

// One group of one run, with the run's p and n: what the aligned walk reads.
struct GroupRun {
  const LearnRun* run;
  const std::vector<SampleNode>* body;
  const std::vector<int>* ranks;
};

// The same node of each run's group, in the order of the runs.
using AlignedNode = std::vector<const SampleNode*>;

// "p = 2, p = 4, …" for messages.
std::string runs_text(const std::vector<GroupRun>& at);
// The application model's name of a call: send, ssend, …, or the collective's.
std::string op_name(const sim::Op& op, const RankSequences& seq);
double mean(const std::vector<double>& v);

}  // namespace augur::learn
