#pragma once
// `augur learn`: one program's traces at several process counts (and problem sizes) made into
// the program section of an application model (app/app_program.hpp). Each run's ranks are
// grouped by what they do (learn/rank_groups.hpp); the groups, their loops and their calls are
// aligned across runs; peers become rules in rank and p (learn/peer_rules.hpp) and every
// quantity a law in p and the problem size (learn/law_fit.hpp). What follows no rule is refused
// with the call, the ranks and the runs that disagree, never learned wrong.
#include <stdexcept>
#include <string>
#include <vector>

#include "app/app_program.hpp"
#include "learn/rank_sequences.hpp"

namespace augur::learn {

struct LearnRun {
  std::string label;  // the trace's path, for messages
  int p = 0;
  double n = 0;       // the problem size, when the program has one
  RankSequences sequences;
};

// One learned quantity, for the report: where it is in the program, what it is, its law.
struct LawLine {
  std::string where, what;
  app::Law law;
};

struct Learned {
  app::AppProgram program;
  std::vector<LawLine> laws;
  std::vector<std::string> notes;  // runs left out and why, calls the traces had that were not learned
  std::size_t absent_blocks = 0;   // blocks taken as loops of zero at some counts (absent_blocks.hpp)
};

class LearnError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `parameter`: the problem size's name ("n"), empty when the runs differ only in p.
Learned learn_program(const std::vector<LearnRun>& runs, const std::string& parameter);
// One way only: with calls told apart by their peers, or (`indexed`) loops whose iterations
// differ by their index.
Learned learn_program(const std::vector<LearnRun>& runs, const std::string& parameter, bool indexed);

}  // namespace augur::learn
