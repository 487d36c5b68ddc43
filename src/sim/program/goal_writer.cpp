// GOAL text of a GOAL graph, or of any program: each rank's operations become a chain of
// vertices, each requiring the one before it (irequiring it after a non-blocking send or
// receive, which lets the chain go on once the request has started); a wait is a `calc 0` that
// requires the requests it completes. Collectives become their algorithm's messages.
#include <cmath>
#include <deque>
#include <ostream>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/program/goal.hpp"

namespace augur::sim {
namespace {

// Calc times in nanoseconds, LogGOPSim's unit: whole numbers where they are, as it reads only those.
std::string nanoseconds(double seconds) {
  const double ns = seconds * 1e9;
  const double whole = std::round(ns);
  if (std::abs(ns - whole) <= 1e-9 * std::max(1.0, std::abs(ns))) return fmt::format("{:.0f}", whole);
  return fmt::format("{}", ns);
}

std::string source_text(std::int32_t peer) { return peer == kAny ? "-1" : std::to_string(peer); }
std::string tag_text(std::int32_t tag) { return tag == kAny ? "-1" : std::to_string(tag); }

std::string vertex_text(const GoalVertex& v) {
  switch (v.op) {
    case GoalOp::calc: return fmt::format("calc {}{}", nanoseconds(v.value), v.cpu ? fmt::format(" cpu {}", v.cpu) : "");
    case GoalOp::send:
    case GoalOp::recv: {
      const bool send = v.op == GoalOp::send;
      std::string text = fmt::format("{} {:.0f}b {} {} tag {}", send ? "send" : "recv", v.value, send ? "to" : "from",
                                     source_text(v.peer), tag_text(v.tag));
      if (v.cpu) text += fmt::format(" cpu {}", v.cpu);
      if (v.nic) text += fmt::format(" nic {}", v.nic);
      return text;
    }
  }
  return {};
}

// Messages of an expanded collective keep to a tag of their own, as the kernel keeps them apart.
constexpr std::int32_t kCollectiveTag = 1 << 30;

// One rank's operations as GOAL vertices and dependencies.
class ChainWriter {
 public:
  ChainWriter(const Program& p, const AlgorithmChoice& algorithms, int rank, std::string& out)
      : p_(p), algorithms_(algorithms), rank_(rank), out_(out) {}

  void operation(const Op& op) {
    if (op.peer == kLastSource)
      throw std::invalid_argument(fmt::format("rank {}: a reply to the latest receive's source has no GOAL form", rank_));
    switch (op.kind) {
      case OpKind::compute: return chain(vertex({op.value, rank_, kAny, 0, 0, 0, GoalOp::calc}), false);
      // GOAL's calc is a time, not work scaled by a node's speed: a sleep is one as it is.
      case OpKind::sleep: return chain(vertex({op.value, rank_, kAny, 0, 0, 0, GoalOp::calc}), false);
      case OpKind::until:
        throw std::invalid_argument(fmt::format("rank {}: `at` (an absolute start) has no GOAL form", rank_));
      case OpKind::jump:
        throw std::invalid_argument(fmt::format("rank {}: a loop the run ends (until a tag) has no GOAL form", rank_));
      case OpKind::send: return message(op, GoalOp::send, op.peer, op.tag, false);
      case OpKind::isend: return message(op, GoalOp::send, op.peer, op.tag, true);
      case OpKind::recv: return message(op, GoalOp::recv, op.peer, op.tag, false);
      case OpKind::irecv: return message(op, GoalOp::recv, op.peer, op.tag, true);
      case OpKind::sendrecv: return sendrecv(op);
      case OpKind::wait: return wait(op);
      case OpKind::collective: return collective(op);
    }
  }

 private:
  struct Link {
    std::uint32_t label;
    bool started;
  };

  std::uint32_t vertex(const GoalVertex& v) {
    out_ += fmt::format("l{}: {}\n", next_, vertex_text(v));
    for (const auto& b : before_) out_ += fmt::format("l{} {} l{}\n", next_, b.started ? "irequires" : "requires", b.label);
    return next_++;
  }
  void chain(std::uint32_t label, bool started) { before_ = {{label, started}}; }

  std::int32_t world(const Op& op, std::int32_t peer) const {
    return peer >= 0 ? p_.comms()[op.comm].member(peer) : peer;
  }

  void message(const Op& op, GoalOp kind, std::int32_t peer, std::int32_t tag, bool nonblocking) {
    if (peer == kNoPeer) return;
    if (kind == GoalOp::send && (peer == kAny || tag == kAny))
      throw std::invalid_argument(fmt::format("rank {}: a send to any rank or with any tag has no GOAL form", rank_));
    const auto label = vertex({op.value, rank_, world(op, peer), tag, 0, 0, kind});
    chain(label, nonblocking);
    if (nonblocking) outstanding_.push_back(label);
  }

  void sendrecv(const Op& op) {
    std::vector<Link> after;
    if (op.peer != kNoPeer) after.push_back({vertex({op.value, rank_, world(op, op.peer), op.tag, 0, 0, GoalOp::send}), false});
    if (op.peer2 != kNoPeer) after.push_back({vertex({0, rank_, world(op, op.peer2), op.tag2, 0, 0, GoalOp::recv}), false});
    if (!after.empty()) before_ = after;
  }

  void wait(const Op& op) {
    std::vector<std::uint32_t> awaited;
    if (op.peer >= 0) {
      const auto& set = p_.wait_set(op.peer);
      std::deque<std::uint32_t> left;
      std::size_t s = 0;
      for (std::uint32_t i = 0; i < outstanding_.size(); ++i) {
        if (s < set.size() && set[s] == i) {
          awaited.push_back(outstanding_[i]);
          ++s;
        } else {
          left.push_back(outstanding_[i]);
        }
      }
      outstanding_ = std::move(left);
    } else {
      const std::size_t n = op.tag2 > 0 ? std::min<std::size_t>(std::size_t(op.tag2), outstanding_.size()) : outstanding_.size();
      awaited.assign(outstanding_.begin(), outstanding_.begin() + static_cast<std::ptrdiff_t>(n));
      outstanding_.erase(outstanding_.begin(), outstanding_.begin() + static_cast<std::ptrdiff_t>(n));
    }
    for (auto a : awaited) before_.push_back({a, false});
    chain(vertex({0, rank_, kAny, 0, 0, 0, GoalOp::calc}), false);
  }

  void collective(const Op& op) {
    const auto& name = p_.names()[op.name];
    const auto chosen = algorithms_.find(name);
    const Algorithm algorithm = chosen != algorithms_.end() ? find_algorithm(name, chosen->second) : default_algorithm(name);
    if (!algorithm) throw std::invalid_argument(fmt::format("{} has no algorithm to write it as GOAL messages", name));
    const auto& comm = p_.comms()[op.comm];
    const int me = comm.index_of(rank_);
    if (me < 0) throw std::invalid_argument(fmt::format("rank {} calls {} outside its communicator {}", rank_, name, comm.name));
    const CollectiveCall call{me, comm.size, std::max(0, op.peer), op.value};
    Op step;
    for (std::uint32_t i = 0; algorithm(call, i, step); ++i) {
      step.comm = op.comm;
      step.tag = step.tag2 = kCollectiveTag + op.comm;
      operation(step);
    }
  }

  const Program& p_;
  const AlgorithmChoice& algorithms_;
  int rank_;
  std::string& out_;
  std::uint32_t next_ = 0;
  std::vector<Link> before_;
  std::deque<std::uint32_t> outstanding_;
};

}  // namespace

void write_goal(const GoalProgram& program, std::ostream& out) {
  out << "num_ranks " << program.nranks() << "\n";
  std::string block;
  for (int r = 0; r < program.nranks(); ++r) {
    block = fmt::format("\nrank {} {{\n", r);
    const auto first = program.first_vertex(r), last = program.first_vertex(r + 1);
    for (auto v = first; v < last; ++v) block += fmt::format("l{}: {}\n", v - first, vertex_text(program.vertices()[v]));
    for (auto v = first; v < last; ++v)
      for (const auto d : program.dependents(v))
        block += fmt::format("l{} {} l{}\n", (d >> 1) - first, d & 1 ? "irequires" : "requires", v - first);
    block += "}\n";
    out << block;
  }
}

void write_goal(const Program& program, const AlgorithmChoice& algorithms, std::ostream& out) {
  out << "num_ranks " << program.nranks() << "\n";
  std::string block;
  for (int r = 0; r < program.nranks(); ++r) {
    block = fmt::format("\nrank {} {{\n", r);
    ChainWriter chain(program, algorithms, r, block);
    Op op;
    for (std::uint32_t pc = 0; program.fetch(r, pc, op); ++pc) chain.operation(op);
    block += "}\n";
    out << block;
  }
}

}  // namespace augur::sim
