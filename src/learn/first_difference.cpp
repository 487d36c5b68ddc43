#include "learn/first_difference.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "model/units.hpp"

namespace augur::learn {
namespace {

using sim::OpKind;

bool same_step(const SampleNode& a, const RankSequences& sa, const SampleNode& b, const RankSequences& sb) {
  if (a.is_loop() != b.is_loop()) return false;
  if (a.is_loop()) return true;  // a loop the run ends on another tag is refused where it is learned
  return same_call(a.op, sa, b.op, sb);
}

struct Difference {
  const SampleNode* a = nullptr;  // null: a's body ended
  const SampleNode* b = nullptr;
  const SampleNode* last_a = nullptr;  // the last leaf both did alike, for a body that ended
  const SampleNode* last_b = nullptr;
};

bool walk(const std::vector<SampleNode>& a, const RankSequences& sa, const std::vector<SampleNode>& b,
          const RankSequences& sb, Difference& d) {
  const auto n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (!same_step(a[i], sa, b[i], sb)) {
      d.a = &a[i], d.b = &b[i];
      return true;
    }
    if (a[i].is_loop()) {
      if (walk(a[i].body, sa, b[i].body, sb, d)) return true;
    } else {
      d.last_a = &a[i], d.last_b = &b[i];
    }
  }
  if (a.size() == b.size()) return false;
  d.a = n < a.size() ? &a[n] : nullptr;
  d.b = n < b.size() ? &b[n] : nullptr;
  return true;
}

const SampleNode& first_leaf(const SampleNode& n) { return n.is_loop() ? first_leaf(n.body.front()) : n; }

// The ops of a rank alternate compute, call, compute …: the call at place 2j − 1 is the rank's j-th.
std::uint32_t call_number(std::uint32_t place) { return (place + 1) / 2; }

std::string rank_text(std::int32_t peer) {
  if (peer == sim::kNoPeer) return "MPI_PROC_NULL";
  if (peer == sim::kAny) return "MPI_ANY_SOURCE";
  return std::to_string(peer);
}

// The call as the rank made it, at its first occurrence: its own peer and size.
std::string call_text(const sim::Op& op, const RankSequences& seq) {
  const auto name = model::mpi_name(op_name(op, seq));
  switch (op.kind) {
    case OpKind::compute: return fmt::format("compute, {}", model::format_seconds(op.value));
    case OpKind::send:
    case OpKind::isend: return fmt::format("{} to {}, {}", name, rank_text(op.peer), model::format_bytes(op.value));
    case OpKind::recv:
    case OpKind::irecv: return fmt::format("{} from {}, {}", name, rank_text(op.peer), model::format_bytes(op.value));
    case OpKind::sendrecv:
      return fmt::format("{} to {}, from {}, {}", name, rank_text(op.peer), rank_text(op.peer2),
                         model::format_bytes(op.value));
    case OpKind::wait:
      if (op.tag != 0)
        return fmt::format("{} of the requests at places {} (0 the oldest)", name, fmt::join(wait_places(op, seq), ", "));
      return op.tag2 == 0 ? name + " of all requests" : fmt::format("{} of {} requests", name, op.tag2);
    case OpKind::collective: {
      std::string out = name;
      if (op.peer >= 0) out += fmt::format(" rooted at {}", op.peer);
      if (op.comm != 0) out += fmt::format(" on a communicator of {} ranks", seq.comm_sizes.at(op.comm));
      return out + ", " + model::format_bytes(op.value);
    }
    default: return name;
  }
}

}  // namespace

bool same_call(const sim::Op& a, const RankSequences& sa, const sim::Op& b, const RankSequences& sb) {
  return a.kind == b.kind && a.mode == b.mode && op_name(a, sa) == op_name(b, sb) &&
         (a.kind != OpKind::wait || a.tag == b.tag);  // the places a wait awaits
}

std::string describe_call(const GroupRun& run, const SampleNode* node, const SampleNode* last) {
  const auto who = fmt::format("{}, rank {}", run.run->label, run.ranks->front());
  if (!node) {
    if (!last || last->at.empty()) return who + ": nothing more";
    // The last step alike is a call (2j − 1) or the compute after call j (2j).
    return fmt::format("{}: nothing more after call {}", who, last->at.front() / 2 + last->at.front() % 2);
  }
  const auto& leaf = first_leaf(*node);
  const auto loop = node->is_loop() ? fmt::format("a loop of {} iterations, from ", node->times) : std::string();
  const auto& ops = run.run->sequences.ops.at(run.ranks->front());
  if (leaf.at.empty()) return fmt::format("{}: {}{}", who, loop, model::mpi_name(op_name(leaf.op, run.run->sequences)));
  // Every call is preceded by a compute (the rhythm): the call after it is what the rank did.
  auto place = leaf.at.front();
  if (ops[place].kind == OpKind::compute && place + 1 < ops.size()) ++place;
  if (ops[place].kind == OpKind::compute) return fmt::format("{}: {}{}", who, loop, call_text(ops[place], run.run->sequences));
  return fmt::format("{}, call {}: {}{}", who, call_number(place), loop, call_text(ops[place], run.run->sequences));
}

std::optional<std::string> where_ranks_part(const LearnRun& run, int a, int b) {
  const auto& seq = run.sequences;
  const auto& x = seq.ops.at(a);
  const auto& y = seq.ops.at(b);
  // Every call is preceded by a compute (the rhythm): the calls are at the odd places.
  std::size_t place = 1;
  while (place < x.size() && place < y.size() && same_call(x[place], seq, y[place], seq)) place += 2;
  if (place >= x.size() && place >= y.size()) return std::nullopt;
  const auto call = call_number(static_cast<std::uint32_t>(place));
  const auto side = [&](int rank, const std::vector<sim::Op>& ops) {
    const auto who = fmt::format("{}, rank {}", run.label, rank);
    if (place < ops.size()) return fmt::format("{}, call {}: {}", who, call, call_text(ops[place], seq));
    return fmt::format("{}: nothing more after call {}", who, call - 1);
  };
  return fmt::format("  {}\n  {}", side(a, x), side(b, y));
}

std::optional<std::string> first_difference(const GroupRun& a, const GroupRun& b) {
  Difference d;
  if (!walk(*a.body, a.run->sequences, *b.body, b.run->sequences, d)) return std::nullopt;
  return fmt::format("the first difference between p = {} and p = {}:\n  p = {}: {}\n  p = {}: {}", a.run->p, b.run->p,
                     a.run->p, describe_call(a, d.a, d.last_a), b.run->p, describe_call(b, d.b, d.last_b));
}

}  // namespace augur::learn
