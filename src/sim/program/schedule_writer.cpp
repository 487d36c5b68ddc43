// Any program written back as a schedule, so a generated program can be read, edited and run
// again. Consecutive ranks with the same operations share one `ranks A..B` body.
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/program/message_ops.hpp"
#include "sim/program/schedule.hpp"

namespace augur::sim {
namespace {

std::string peer_text(std::int32_t peer) {
  return peer == kAny ? "any" : peer == kNoPeer ? "null" : std::to_string(peer);
}

std::string options_text(const Program& p, const Op& op, bool with_tag) {
  std::string out;
  if (with_tag && op.tag != 0) out += op.tag == kAny ? " tag=any" : fmt::format(" tag={}", op.tag);
  if (op.comm != 0) out += " comm=" + p.comms()[op.comm].name;
  return out;
}

std::string op_text(const Program& p, const Op& op) {
  if (op.peer == kLastSource) throw std::invalid_argument("a reply to the latest receive's source has no schedule form");
  switch (op.kind) {
    case OpKind::compute: return fmt::format("compute {:.17g}", op.value);
    case OpKind::sleep: return fmt::format("sleep {:.17g}", op.value);
    case OpKind::until: return fmt::format("at {:.17g}", op.value);
    case OpKind::jump: throw std::invalid_argument("a loop the run ends (until a tag) has no schedule form");
    case OpKind::send:
      return fmt::format("{} {} {:.0f}{}", message_op_of(op.kind, op.mode)->word, peer_text(op.peer), op.value, options_text(p, op, true));
    case OpKind::isend: return fmt::format("isend {} {:.0f}{}", peer_text(op.peer), op.value, options_text(p, op, true));
    case OpKind::recv: return fmt::format("recv {}{}", peer_text(op.peer), options_text(p, op, true));
    case OpKind::irecv: return fmt::format("irecv {} {:.0f}{}", peer_text(op.peer), op.value, options_text(p, op, true));
    case OpKind::sendrecv:
      return fmt::format("sendrecv {} {} {:.0f}{}", peer_text(op.peer), peer_text(op.peer2), op.value, options_text(p, op, true));
    case OpKind::wait:
      if (op.peer >= 0) return fmt::format("wait {{{}}}", fmt::join(p.wait_set(op.peer), ", "));
      return op.tag2 == 0 ? "waitall" : fmt::format("wait {}", op.tag2);
    case OpKind::collective: {
      std::string root = op.peer >= 0 ? fmt::format(" root={}", p.comms()[op.comm].member(op.peer)) : "";
      return fmt::format("{} {:.0f}{}{}", p.names()[op.name], op.value, root, options_text(p, op, false));
    }
  }
  return {};
}

std::vector<Op> ops_of(const Program& p, int rank) {
  std::vector<Op> ops;
  Op op;
  for (std::uint32_t pc = 0; p.fetch(rank, pc, op); ++pc) ops.push_back(op);
  return ops;
}

bool same(const std::vector<Op>& a, const std::vector<Op>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(Op)) == 0);
}

}  // namespace

std::string write_schedule(const Program& p, int max_ranks) {
  if (p.nranks() > max_ranks)
    throw std::invalid_argument(fmt::format("{} ranks is more than the {} a written schedule lists one by one", p.nranks(), max_ranks));
  std::string out = fmt::format("ranks {}\n", p.nranks());
  for (std::size_t c = 1; c < p.comms().size(); ++c) {
    const auto& comm = p.comms()[c];
    out += fmt::format("comm {} = {{{}}}\n", comm.name, fmt::join(comm.members, ", "));
  }
  for (int first = 0; first < p.nranks();) {
    const auto ops = ops_of(p, first);
    int last = first;
    while (last + 1 < p.nranks() && same(ops_of(p, last + 1), ops)) ++last;
    out += first == last ? fmt::format("rank {} {{\n", first) : fmt::format("ranks {}..{} {{\n", first, last);
    for (const auto& op : ops) out += "  " + op_text(p, op) + "\n";
    out += "}\n";
    first = last + 1;
  }
  return out;
}

}  // namespace augur::sim
