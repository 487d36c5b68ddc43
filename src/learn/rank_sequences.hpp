#pragma once
// A trace's ranks as the operation sequences `augur learn` compresses: the trace replayed into
// the simulator's operations (sim/program/replay.hpp), then put in one rhythm, a compute
// between every two calls (zero seconds when the program went straight from one call to the
// next), so a loop's iterations give the same tokens whether or not a call was preceded by
// measurable work.
#include <cstdint>
#include <map>
#include <memory>
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

// The sets of places among the outstanding requests that waits await, when not the oldest ones:
// numbered once for all the traces learned together, so that two ranks' or two counts' waits are
// the same call exactly when they await the same places (each trace's own table numbers them
// apart).
class WaitPlaceSets {
 public:
  std::int32_t id(const std::vector<std::uint32_t>& places);  // 1, 2, …
  const std::vector<std::uint32_t>& places(std::int32_t id) const { return sets_.at(std::size_t(id - 1)); }

 private:
  std::map<std::vector<std::uint32_t>, std::int32_t> ids_;
  std::vector<std::vector<std::uint32_t>> sets_;
};

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
  std::shared_ptr<WaitPlaceSets> wait_sets;  // the places of waits whose tag is not 0
};

// A wait on requests other than the oldest has its places' id (WaitPlaceSets) as its tag.
RankSequences rank_sequences(const trace::Trace& trace, std::shared_ptr<WaitPlaceSets> wait_sets);

// The places a wait awaits (0 the oldest), or nothing for a wait on the oldest requests.
std::vector<std::uint32_t> wait_places(const sim::Op& wait, const RankSequences& seq);

}  // namespace augur::learn
