#pragma once
// A rank's operations as loops: a sequence of token ids (a call with its peer, tag and
// communicator, or a compute) compressed into a tree of repeated bodies with their counts, e.g.
// init, repeat 10 { repeat 5 { compute irecv×4 isend×4 waitall } allreduce }, finalize.
//
// The same program run with other iteration counts gives a tree of the same shape, so runs at
// several process counts can be aligned node by node (same_shape) and each count fitted as a law.
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace augur::learn {

struct LoopNode {
  std::uint32_t token = 0;                 // a leaf's token
  std::uint32_t times = 1;                 // a loop's iterations (>= 2); 1 for a leaf
  std::vector<LoopNode> body;              // a loop's body; empty for a leaf
  std::vector<std::uint32_t> occurrences;  // a leaf: its every position in the input sequence, ascending
  // A loop the run ends (learn/rank_groups.cpp makes them; compress never does): it stops when its
  // first receive takes a message with this tag, after `times` iterations here.
  std::int32_t until_tag = -1;
  bool is_loop() const { return !body.empty(); }
};

struct LoopOptions {
  std::uint32_t max_period = 512;  // longest body looked for, in tokens and loops already found
};

// The sequence as a list of top-level nodes; expand(compress(s)) == s always.
std::vector<LoopNode> compress(std::span<const std::uint32_t> tokens, LoopOptions options = {});
std::vector<std::uint32_t> expand(const std::vector<LoopNode>& nodes);

// The same tree, tokens and nesting, whatever the loops' counts.
bool same_shape(const std::vector<LoopNode>& a, const std::vector<LoopNode>& b);

// "A repeat 10 { repeat 5 { B C } D } E", each token written by `name` (its number by default).
std::string describe(const std::vector<LoopNode>& nodes);
std::string describe(const std::vector<LoopNode>& nodes, const std::function<std::string(std::uint32_t)>& name);

}  // namespace augur::learn
