#pragma once
// Collective algorithms as messages: each rank's part of a collective is a short sequence of
// point-to-point operations, produced on demand one step at a time so a collective over a
// million ranks stores nothing per rank. Peers in the produced operations are ranks of the
// collective's communicator; the kernel maps them to world ranks.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "sim/program/program.hpp"

namespace augur::sim {

struct CollectiveCall {
  int me = 0;    // this rank's index in the communicator
  int size = 1;  // ranks in the communicator
  int root = 0;  // rooted collectives; 0 otherwise
  double bytes = 0;
};

// Writes step `step` of `call` into `op` (send, recv or sendrecv); false when there is none.
using Algorithm = bool (*)(const CollectiveCall& call, std::uint32_t step, Op& op);

struct AlgorithmInfo {
  std::string_view collective;  // bcast, allreduce, barrier …
  std::string_view name;        // 1m, rd, bt …
  std::string_view description;
  Algorithm run;
};

const std::vector<AlgorithmInfo>& algorithm_catalog();
// The algorithm `name` of `collective`, or nullptr.
Algorithm find_algorithm(std::string_view collective, std::string_view name);
// The algorithm used for `collective` when none is chosen, or nullptr when there is none.
Algorithm default_algorithm(std::string_view collective);

// Which algorithm each collective runs as when expanded: "bcast=bt,allreduce=ring".
using AlgorithmChoice = std::map<std::string, std::string, std::less<>>;
AlgorithmChoice parse_algorithm_choice(std::string_view text);  // throws std::invalid_argument

}  // namespace augur::sim
