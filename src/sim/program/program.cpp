#include "sim/program/program.hpp"

#include <algorithm>
#include <stdexcept>

namespace augur::sim {

int Communicator::index_of(int rank) const {
  if (members.empty()) return rank >= 0 && rank < size ? rank : -1;
  auto it = std::lower_bound(members.begin(), members.end(), rank);
  return it != members.end() && *it == rank ? static_cast<int>(it - members.begin()) : -1;
}

Program::Program(int nranks) : nranks_(nranks) {
  if (nranks < 1) throw std::invalid_argument("a program needs at least one rank");
  comms_.push_back({"world", nranks, {}, 0});
}

std::uint16_t Program::add_comm(Communicator comm) {
  if (comms_.size() >= 0xFFFF) throw std::length_error("too many communicators");
  comms_.push_back(std::move(comm));
  return static_cast<std::uint16_t>(comms_.size() - 1);
}

std::uint16_t Program::intern(std::string_view name) {
  auto it = std::find(names_.begin(), names_.end(), name);
  if (it != names_.end()) return static_cast<std::uint16_t>(it - names_.begin());
  if (names_.size() >= 0xFFFF) throw std::length_error("too many operation names");
  names_.emplace_back(name);
  return static_cast<std::uint16_t>(names_.size() - 1);
}

std::int32_t Program::add_wait_set(std::vector<std::uint32_t> positions) {
  std::sort(positions.begin(), positions.end());
  positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
  // Replays repeat the same few sets (a loop's Waitall); each is stored once.
  auto it = std::find(wait_sets_.begin(), wait_sets_.end(), positions);
  if (it != wait_sets_.end()) return static_cast<std::int32_t>(it - wait_sets_.begin());
  if (wait_sets_.size() >= 0x7FFFFFFF) throw std::length_error("too many wait sets");
  wait_sets_.push_back(std::move(positions));
  return static_cast<std::int32_t>(wait_sets_.size() - 1);
}

namespace {

std::int32_t wrap(std::int64_t rank, int n) { return static_cast<std::int32_t>(((rank % n) + n) % n); }

}  // namespace

Op Program::resolved(Op op, int rank) const {
  if (op.flags & kPeerRelative) op.peer = wrap(std::int64_t(rank) + op.peer, nranks_);
  if (op.flags & kPeer2Relative) op.peer2 = wrap(std::int64_t(rank) + op.peer2, nranks_);
  op.flags &= static_cast<std::uint8_t>(~(kPeerRelative | kPeer2Relative));
  return op;
}

FlatProgram::FlatProgram(int nranks) : Program(nranks) {}

std::uint32_t FlatProgram::add_body(std::vector<Op> ops) {
  bodies_.push_back(std::move(ops));
  return static_cast<std::uint32_t>(bodies_.size() - 1);
}

void FlatProgram::assign(int first, int last, std::uint32_t body) {
  if (first < 0 || last >= nranks() || first > last) throw std::out_of_range("rank range outside the program");
  if (rank_body_.empty()) {
    if (body == 0 && first == 0 && last == nranks() - 1) {  // the default: every rank runs body 0
      all_run_first_body_ = true;
      return;
    }
    // Ranks given no body do nothing; those given body 0 for the whole range keep it.
    rank_body_.assign(nranks(), all_run_first_body_ ? 0 : kNoBody);
  }
  std::fill(rank_body_.begin() + first, rank_body_.begin() + last + 1, body);
}

const std::vector<Op>& FlatProgram::body_of(int rank) const {
  static const std::vector<Op> none;
  if (bodies_.empty()) return none;
  if (rank_body_.empty()) return bodies_[0];
  return rank_body_[rank] == kNoBody ? none : bodies_[rank_body_[rank]];
}

bool FlatProgram::fetch(int rank, std::uint32_t pc, Op& op) const {
  const auto& body = body_of(rank);
  if (pc >= body.size()) return false;
  op = body[pc];
  if (op.flags & (kPeerRelative | kPeer2Relative)) op = resolved(op, rank);
  return true;
}

}  // namespace augur::sim
