#pragma once
// What the simulator runs: per-rank sequences of operations. Every input (a schedule, a trace,
// a generator) becomes a Program; the kernel only ever asks it for "the operation at position pc
// of rank r", so a generated program of a million ranks needs no per-rank storage at all.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "timing/rules.hpp"

namespace augur::sim {

// A source or tag that matches anything (MPI_ANY_SOURCE, MPI_ANY_TAG).
inline constexpr std::int32_t kAny = -1;
// A peer that is no one (MPI_PROC_NULL): the operation costs nothing and moves no data.
inline constexpr std::int32_t kNoPeer = -2;
// A destination decided as the program runs: the source of the rank's latest completed receive
// (a server answering whichever client asked); MPI_PROC_NULL before any receive.
inline constexpr std::int32_t kLastSource = -3;

enum class OpKind : std::uint8_t {
  compute,     // value = seconds
  send,        // blocking send to peer; value = bytes
  isend,       // non-blocking send: a request
  recv,        // blocking receive from peer (or kAny)
  irecv,       // non-blocking receive: a request
  sendrecv,    // send to peer and receive from peer2 at once (MPI_Sendrecv)
  wait,        // completes the `count` oldest requests (all when 0), or with peer >= 0 a wait set
  collective,  // name, value = bytes, peer = root (comm rank, or -1), comm
  sleep,       // value = seconds of idle time, whatever the node's speed
  until,       // value = a simulated time: the rank waits until then
  jump,        // value = the position the rank goes on at (a loop whose count the run decides)
};

// Peers given relative to the rank running the operation, e.g. `send rank+1`.
inline constexpr std::uint8_t kPeerRelative = 1;
inline constexpr std::uint8_t kPeer2Relative = 2;
// A blocking receive that ends a loop: when the message it takes has tag `tag2`, the rank goes
// on at position `value` (past the loop's jump back) instead of the next operation.
inline constexpr std::uint8_t kExitOnTag = 4;

// 32 bytes, trivially copyable: bodies are plain arrays.
struct Op {
  double value = 0;          // seconds (compute) or bytes
  std::int32_t peer = kAny;  // destination, source, root
  std::int32_t peer2 = kAny; // sendrecv: the source
  std::int32_t tag = 0;      // sendrecv: the send's tag
  std::int32_t tag2 = 0;     // sendrecv: the receive's tag; wait: how many requests (0 = all)
                             // peer2 of a wildcard receive: the source the trace recorded, or kAny;
                             // tag2 of a wildcard-tag receive: the tag it recorded
                             // peer of a wait: index of its wait set, or kAny for the oldest
  std::uint16_t comm = 0;    // index into Program::comms(); 0 is the world
  std::uint16_t name = 0;    // collective: index into Program::names()
  OpKind kind = OpKind::compute;
  timing::SendMode mode : 8 = timing::SendMode::standard;  // a byte, to keep the operation 32 bytes
  std::uint8_t flags = 0;
};
static_assert(sizeof(Op) == 32);

// Shorthands that build operations (bytes and seconds as doubles). Inline: an expanded
// collective builds one for every message, and one built out of line by narrow stores, then
// copied whole, stalled the copy's loads (store forwarding) in a quarter of the kernel's calls.
inline Op make_op(OpKind kind, std::int32_t peer, double value, std::int32_t tag) {
  Op op;
  op.kind = kind;
  op.peer = peer;
  op.value = value;
  op.tag = tag;
  return op;
}
inline Op compute_op(double seconds) { return make_op(OpKind::compute, kAny, seconds, 0); }
inline Op send_op(std::int32_t peer, double bytes, std::int32_t tag = 0,
                  timing::SendMode mode = timing::SendMode::standard) {
  Op op = make_op(OpKind::send, peer, bytes, tag);
  op.mode = mode;
  return op;
}
inline Op isend_op(std::int32_t peer, double bytes, std::int32_t tag = 0) {
  return make_op(OpKind::isend, peer, bytes, tag);
}
inline Op recv_op(std::int32_t peer, std::int32_t tag = 0) { return make_op(OpKind::recv, peer, 0, tag); }
inline Op irecv_op(std::int32_t peer, std::int32_t tag = 0) { return make_op(OpKind::irecv, peer, 0, tag); }
inline Op sendrecv_op(std::int32_t to, std::int32_t from, double bytes, std::int32_t tag = 0) {
  Op op = make_op(OpKind::sendrecv, to, bytes, tag);
  op.peer2 = from;
  op.tag2 = tag;
  return op;
}
// `count` 0: all outstanding requests.
inline Op wait_op(std::int32_t count = 0) {
  Op op = make_op(OpKind::wait, kAny, 0, 0);
  op.tag2 = count;
  return op;
}
// Completes the outstanding requests at the positions of wait set `set` (Program::wait_set).
inline Op wait_set_op(std::int32_t set) {
  Op op = make_op(OpKind::wait, set, 0, 0);
  op.tag2 = 1;
  return op;
}
inline Op jump_op(std::uint32_t to) { return make_op(OpKind::jump, kAny, double(to), 0); }
inline Op collective_op(std::uint16_t name, double bytes, std::int32_t root = -1, std::uint16_t comm = 0) {
  Op op = make_op(OpKind::collective, root, bytes, 0);
  op.name = name;
  op.comm = comm;
  return op;
}

// A communicator: the world, or a subset of its ranks in increasing order.
struct Communicator {
  std::string name;
  int size = 0;
  std::vector<int> members;  // empty for the world (member i is rank i)
  int trace_id = 0;          // the id traces give it

  int member(int index) const { return members.empty() ? index : members[index]; }
  // The index of world rank `rank` in this communicator, or -1.
  int index_of(int rank) const;
};

class Program {
 public:
  explicit Program(int nranks);
  virtual ~Program() = default;

  int nranks() const { return nranks_; }
  const std::vector<Communicator>& comms() const { return comms_; }
  const std::vector<std::string>& names() const { return names_; }
  std::uint16_t add_comm(Communicator comm);
  std::uint16_t intern(std::string_view name);  // a collective's name
  // A wait that completes requests other than the oldest (a trace's MPI_Wait on its second
  // request): their positions among the rank's outstanding requests, 0 the oldest, ascending.
  std::int32_t add_wait_set(std::vector<std::uint32_t> positions);
  const std::vector<std::uint32_t>& wait_set(std::int32_t set) const { return wait_sets_[set]; }
  std::size_t wait_set_count() const { return wait_sets_.size(); }

  // The operation at position `pc` of `rank` with relative peers resolved; false past the end.
  virtual bool fetch(int rank, std::uint32_t pc, Op& op) const = 0;

 protected:
  // Resolves relative peers of `op` for `rank`, wrapping around the world.
  Op resolved(Op op, int rank) const;

 private:
  int nranks_;
  std::vector<Communicator> comms_;
  std::vector<std::string> names_;
  std::vector<std::vector<std::uint32_t>> wait_sets_;
};

// Bodies of operations shared by ranks: a million ranks running one body store it once.
class FlatProgram final : public Program {
 public:
  explicit FlatProgram(int nranks);
  // Adds a body and returns its index; assign it to ranks with assign().
  std::uint32_t add_body(std::vector<Op> ops);
  // Ranks first..last inclusive; once a body is assigned to some ranks only, the others run
  // nothing until given a body of their own.
  void assign(int first, int last, std::uint32_t body);
  bool fetch(int rank, std::uint32_t pc, Op& op) const override;
  const std::vector<Op>& body_of(int rank) const;

 private:
  std::vector<std::vector<Op>> bodies_;
  static constexpr std::uint32_t kNoBody = 0xFFFFFFFF;
  std::vector<std::uint32_t> rank_body_;  // empty: every rank runs body 0; kNoBody: nothing
  bool all_run_first_body_ = false;        // body 0 was assigned to every rank while rank_body_ stayed empty
};

}  // namespace augur::sim
