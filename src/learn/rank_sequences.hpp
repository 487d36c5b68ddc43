#pragma once
// A trace's ranks as the operation sequences `augur learn` compresses: the trace replayed into
// the simulator's operations (sim/program/replay.hpp), then put in one rhythm, a compute
// between every two calls (zero seconds when the program went straight from one call to the
// next), so a loop's iterations give the same tokens whether or not a call was preceded by
// measurable work.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/program/program.hpp"
#include "trace/trace.hpp"

namespace augur::learn {

// Tags below this one are given to calls towards MPI_PROC_NULL, whose real tag no trace records.
inline constexpr std::int32_t kNoOneTag = -1000;

// A point-to-point message call: its peer, tag and communicator say who it talks to.
inline bool is_message(const sim::Op& op) {
  using sim::OpKind;
  return op.kind == OpKind::send || op.kind == OpKind::isend || op.kind == OpKind::recv || op.kind == OpKind::irecv ||
         op.kind == OpKind::sendrecv;
}

struct RankSequences {
  int ranks = 0;
  std::vector<std::vector<sim::Op>> ops;  // per rank: compute, call, compute, call, …, compute
  std::vector<std::string> names;         // collective names, indexed by Op::name
  std::vector<int> comm_sizes;            // members of each communicator, indexed by Op::comm
  std::vector<std::vector<int>> comm_members;  // their world ranks, ascending (the world's listed too)
  std::map<std::string, long> skipped;    // calls the replay left out, by name
  // Per rank, aligned with `ops`: what each blocking receive (recv, sendrecv) took in the run,
  // its source and tag (sim::kAny elsewhere), which a wildcard receive's op does not say.
  std::vector<std::vector<std::int32_t>> received_from, received_tag;
};

// Throws std::runtime_error naming the rank when a wait completes requests other than the oldest
// ones in a way a count of requests cannot say.
RankSequences rank_sequences(const trace::Trace& trace);

}  // namespace augur::learn
