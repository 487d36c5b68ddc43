// What the kernel says when a program cannot finish, or finishes leaving messages behind.
#include <fmt/format.h>

#include "sim/kernel/engine.hpp"

namespace augur::sim {
namespace {

std::string peer_text(std::int32_t peer) {
  if (peer == kAny) return "any rank";
  if (peer == kNoPeer) return "no rank";
  return fmt::format("rank {}", peer);
}

std::string tag_text(std::int32_t tag) { return tag == kAny ? "any tag" : fmt::format("tag {}", tag); }

constexpr int kListed = 20;

}  // namespace

std::string Engine::describe_blocked(int rank) {
  auto& rs = ranks_[rank];
  Op op;
  if (!current_op(rank, op)) return "finished";
  const auto& comm = program_.comms()[op.comm];
  std::string where = rs.step ? fmt::format(" (step {} of an expanded collective)", rs.step) : "";
  switch (op.kind) {
    case OpKind::send:
      return fmt::format("send to {} ({}, {:.0f} B) on {}, waiting for its receive{}", peer_text(op.peer),
                         tag_text(op.tag), op.value, comm.name, where);
    case OpKind::recv:
      return fmt::format("recv from {} ({}) on {}, posted at {:.9g} s{}", peer_text(op.peer), tag_text(op.tag),
                         comm.name, rs.begin, where);
    case OpKind::sendrecv:
      return fmt::format("sendrecv to {}, from {} ({}) on {}{}", peer_text(op.peer), peer_text(op.peer2),
                         tag_text(op.tag2), comm.name, where);
    case OpKind::wait: {
      std::string pending;
      for (const auto& r : requests_)
        if (r.rank == rank && r.awaited && !r.done)
          pending += fmt::format("{}{} {} ({})", pending.empty() ? "" : ", ", r.receive ? "irecv from" : "isend to",
                                 peer_text(r.peer), tag_text(r.tag));
      return fmt::format("wait for {} request(s): {}", rs.pending, pending);
    }
    case OpKind::collective: {
      const auto& c = collectives_[op.comm];
      return fmt::format("{} on {} ({} of {} ranks arrived)", program_.names()[op.name], comm.name, c.arrived,
                         comm.size);
    }
    default: return "ready";
  }
}

void Engine::report_deadlock() {
  std::string text;
  int blocked = 0;
  double latest = 0;
  for (int r = 0; r < program_.nranks(); ++r) {
    if (ranks_[r].status == Status::done) continue;
    latest = std::max(latest, ranks_[r].now);
    if (blocked++ < kListed) text += fmt::format("\n  rank {}: {}", r, describe_blocked(r));
  }
  if (blocked > kListed) text += fmt::format("\n  … and {} more", blocked - kListed);
  throw DeadlockError(fmt::format("deadlock: {} of {} ranks can never finish (nothing left to happen after {:.9g} s "
                                  "of simulated time):{}",
                                  blocked, program_.nranks(), latest, text));
}

void Engine::warn_unreceived(Result& result) const {
  std::uint64_t count = 0;
  std::string first;
  for (const auto& rs : ranks_)
    for (auto m = rs.unexpected_head; m != kNil; m = messages_[m].next) {
      const auto& msg = messages_[m];
      if (count++ == 0)
        first = fmt::format("rank {} to rank {}, tag {}, {:.0f} B, sent at {:.9g} s", msg.src, msg.dst, msg.tag,
                            msg.bytes, msg.start);
    }
  if (count > 0) result.warnings.push_back(fmt::format("{} message(s) were never received (the first: {})", count, first));
}

}  // namespace augur::sim
