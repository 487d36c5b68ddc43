#pragma once
// What a program's peer rule (app/app_program.hpp) names for one rank at a process count p,
// computed here once for the simulator (sim/program/app_program.cpp, instantiating a model) and
// for augur learn (learn/peer_rules.cpp, checking a rule against the traced peers), so that
// the two agree at every edge.
#include <cstdint>
#include <optional>

#include "app/app_program.hpp"

namespace augur::app {

// A rule at one p with its law evaluated: all a rank needs to find its peer.
struct PeerAt {
  PeerRule::Kind kind = PeerRule::Kind::none;
  std::int64_t value = 0;               // fixed: the rank; offset, exclusive_or: the operand
  bool wrap = true;                     // offset
  std::int64_t extent = 1, stride = 1;  // grid: the dimension's length, the ranks one step along it spans
  int shift = 0;                        // grid
  bool periodic = false;                // grid
};

// `value` is the rule's law at p: `rank` for fixed, `by` for offset and exclusive_or (ignored
// otherwise). A fixed rank outside 0..p−1 and a negative exclusive-or operand are errors
// (std::invalid_argument, the reason without the field): such a rule names no rank of the
// program at p, and reading it as MPI_PROC_NULL would drop its messages from the prediction
// without a word (a model means MPI_PROC_NULL by the rule `none`, and MPI itself fails a call
// to a rank outside the communicator).
PeerAt peer_at(const PeerRule& rule, std::int64_t p, std::int64_t value);

// The world rank `rank` (0..p−1) exchanges with under a fixed, offset, grid or exclusive_or
// rule, or nothing for MPI_PROC_NULL: an offset that does not wrap, or a grid neighbour that is
// not periodic, past the ends; an exclusive or past p − 1. The kinds any, none and reply name no
// rank by the rule (each caller has its own marks for them): nothing.
std::optional<std::int64_t> peer_rank(const PeerAt& peer, std::int64_t rank, std::int64_t p);

}  // namespace augur::app
