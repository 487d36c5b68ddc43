#include "learn/rank_sequences.hpp"

#include <utility>

#include "sim/program/replay.hpp"

namespace augur::learn {
namespace {

// A wait on a set of requests is kept as a count when the set is the oldest ones, as the
// program's own MPI_Waitall over all its requests is, else with its places' id as its tag.
sim::Op as_learned_wait(const sim::Program& program, const sim::Op& op, WaitPlaceSets& sets) {
  if (op.kind != sim::OpKind::wait || op.peer < 0) return op;
  const auto& positions = program.wait_set(op.peer);
  auto out = sim::wait_op(static_cast<std::int32_t>(positions.size()));
  for (std::size_t i = 0; i < positions.size(); ++i)
    if (positions[i] != i) {
      out.tag = sets.id(positions);
      break;
    }
  return out;
}

// A call towards MPI_PROC_NULL leaves no message record, so its tag is unknown: it is given one of
// its own, its place among the calls towards no one since the last real call, so that two such
// calls in a row (a corner of a grid) stay two calls and do not read as a loop of one. A wait or
// a collective is a real call too: a step that ends in a wait and starts towards no one (a
// halo's first face on the grid's edge) then numbers that call alike in every step, the first too.
void mark_calls_to_no_one(sim::Op& op, std::int32_t& ordinal) {
  if (!is_message(op)) {
    ordinal = 0;
    return;
  }
  const bool none = op.peer == sim::kNoPeer, none2 = op.kind == sim::OpKind::sendrecv && op.peer2 == sim::kNoPeer;
  if (!none && !none2) {
    ordinal = 0;
    return;
  }
  ++ordinal;
  if (none) op.tag = kNoOneTag - ordinal;
  if (none2) op.tag2 = kNoOneTag - ordinal;
}

// What a blocking receive took in the run, its source and tag (sim::kAny for any other call):
// the replay keeps a wildcard's in peer2 and tag2. The recorded tag is then cleared, so a
// wildcard receive stays one token whatever tag it took.
std::pair<std::int32_t, std::int32_t> take_received(sim::Op& op) {
  if (op.kind == sim::OpKind::sendrecv) return {op.peer2, op.tag2};
  if (op.kind != sim::OpKind::recv) return {sim::kAny, sim::kAny};
  const std::pair received{op.peer == sim::kAny ? op.peer2 : op.peer, op.tag == sim::kAny ? op.tag2 : op.tag};
  op.tag2 = 0;
  return received;
}

void add_in_rhythm(const sim::Program& program, const std::vector<sim::Op>& body, RankSequences& seq) {
  auto& out = seq.ops.emplace_back();
  auto& from = seq.received_from.emplace_back(1, sim::kAny);
  auto& tag = seq.received_tag.emplace_back(1, sim::kAny);
  out.reserve(2 * body.size() + 1);
  out.push_back(sim::compute_op(0));
  std::int32_t ordinal = 0;
  for (const auto& op : body) {
    if (op.kind == sim::OpKind::compute) {
      out.back().value += op.value;
      continue;
    }
    out.push_back(as_learned_wait(program, op, *seq.wait_sets));
    const auto [source, taken] = take_received(out.back());
    from.push_back(source), tag.push_back(taken);
    mark_calls_to_no_one(out.back(), ordinal);
    out.push_back(sim::compute_op(0));
    from.push_back(sim::kAny), tag.push_back(sim::kAny);
  }
}

}  // namespace

std::int32_t WaitPlaceSets::id(const std::vector<std::uint32_t>& places) {
  const auto [it, added] = ids_.try_emplace(places, static_cast<std::int32_t>(sets_.size() + 1));
  if (added) sets_.push_back(places);
  return it->second;
}

std::vector<std::uint32_t> wait_places(const sim::Op& wait, const RankSequences& seq) {
  if (wait.kind != sim::OpKind::wait || wait.tag == 0) return {};
  return seq.wait_sets->places(wait.tag);
}

RankSequences rank_sequences(const trace::Trace& trace, std::shared_ptr<WaitPlaceSets> wait_sets) {
  const auto replay = sim::replay_program(trace, 1.0, sim::Match::simulated);
  const auto& program = *replay.program;
  RankSequences out;
  out.ranks = trace.nranks();
  out.wait_sets = std::move(wait_sets);
  out.names = program.names();
  for (const auto& comm : program.comms()) {
    out.comm_sizes.push_back(comm.members.empty() ? out.ranks : comm.size);
    auto& members = out.comm_members.emplace_back(comm.members);
    if (members.empty())
      for (int r = 0; r < out.ranks; ++r) members.push_back(r);
  }
  out.skipped = replay.skipped;
  out.ops.reserve(out.ranks);
  for (int r = 0; r < out.ranks; ++r) add_in_rhythm(program, program.body_of(r), out);
  return out;
}

}  // namespace augur::learn
