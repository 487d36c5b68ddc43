#pragma once
// The walk of `augur learn` over one group's bodies at every run, node by node: loops (counted,
// or ended by a tag), computes and calls, each checked to be the same at every run and made into
// the application model's node, its quantities laws (learn/law_book.hpp), its peers rules
// (learn/peer_choice.hpp) and, inside a loop with an index, laws in the index
// (learn/index_laws.hpp). A new form of node is a new case here.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "learn/aligned.hpp"
#include "learn/index_laws.hpp"
#include "learn/law_book.hpp"

namespace augur::learn {

class Aligner {
 public:
  // `indexed`: loops get an index their body's laws may read.
  Aligner(LawBook& laws, bool indexed) : laws_(laws), indexed_(indexed) {}

  // The nodes of the runs' bodies `at`, which must be the same steps; `where` names them in messages.
  std::vector<app::ProgramNode> body(const std::vector<GroupRun>& at, const std::string& where);

 private:
  void check_same_steps(const std::vector<GroupRun>& at, const std::string& where) const;
  app::ProgramNode loop(const std::vector<GroupRun>& at, const AlignedNode& node, const std::string& where, std::size_t i);
  app::ProgramNode until(const std::vector<GroupRun>& at, const AlignedNode& node, const std::string& where,
                         std::size_t i);
  void add_compute(const std::vector<GroupRun>& at, const AlignedNode& node, const std::string& where,
                   std::vector<app::ProgramNode>& nodes);
  app::ProgramNode call(const std::vector<GroupRun>& at, const AlignedNode& node, const std::string& where,
                        std::size_t i);
  app::Law bytes(const std::vector<GroupRun>& at, const AlignedNode& node, const std::string& here, PeerGrid grid);
  app::CommRule communicator(const std::vector<GroupRun>& at, const AlignedNode& node, const std::string& here);

  static constexpr std::array<const char*, 4> kIndexNames{"i", "j", "k", "l"};

  LawBook& laws_;
  bool indexed_;
  std::optional<IndexContext> index_;  // the innermost loop around the node being learned, when indexed
  std::size_t depth_ = 0;
  int until_depth_ = 0;  // loops the run ends around the node being learned
};

}  // namespace augur::learn
