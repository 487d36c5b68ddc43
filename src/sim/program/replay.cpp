#include "sim/program/replay.hpp"
#include "model/units.hpp"

#include <algorithm>
#include <deque>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/program/message_ops.hpp"

namespace augur::sim {
namespace {

using trace::RankTrace;

// Communicators by trace id: members are the ranks that ran a collective on it.
std::map<int, std::uint16_t> communicators(const trace::Trace& t, FlatProgram& program) {
  std::map<int, std::uint16_t> index{{0, 0}};
  for (const auto& [id, ranks] : t.communicator_members()) {
    if (id == 0) continue;
    std::vector<int> list(ranks.begin(), ranks.end());
    const int size = static_cast<int>(list.size());
    index[id] = program.add_comm({fmt::format("c{}", id), size, std::move(list), id});
  }
  return index;
}

// One rank's records, consumed as its states are read.
class RankReader {
 public:
  RankReader(const trace::Trace& t, const RankTrace& rank, const std::map<int, std::uint16_t>& comms,
             FlatProgram& program, double scale, Match match, std::map<std::string, long>& skipped)
      : t_(t), rank_(rank), comms_(comms), program_(program), scale_(scale), match_(match), skipped_(skipped) {
    for (std::size_t i = 0; i < rank.recvs.size(); ++i) by_post_[rank.recvs[i].post].push_back(i);
    for (const auto& r : rank.requests) made_[r.time].push_back(r);
    for (const auto& c : rank.completions) completed_[c.time].push_back(c.id);
  }

  std::vector<Op> read() {
    for (const auto& s : rank_.states) {
      if (s.kind == trace::StateKind::compute) ops_.push_back(compute_op((s.end - s.begin) * scale_));
      else if (s.kind == trace::StateKind::mpi) call(t_.names[s.op], s);
    }
    return std::move(ops_);
  }

  long never_completed() const {
    if (rank_.requests.empty()) return 0;  // an older trace: its waits take the oldest requests
    return std::count_if(outstanding_.begin(), outstanding_.end(), [](const Outstanding& o) { return !o.null; });
  }

 private:
  struct Outstanding {
    bool receive;
    double end;
    std::int64_t id;  // the trace's request id, or -1 (an older trace)
    bool null = false;  // towards MPI_PROC_NULL: complete at once
  };

  // The request the non-blocking call that began at `t` made (version 2): its id and peer, in
  // call order, so a call towards MPI_PROC_NULL (which costs nothing, so the next call begins
  // at the same time) does not take the next call's message record.
  struct Made {
    std::int64_t id = -1;
    std::int32_t peer = kAny;
    bool null() const { return peer == trace::kNullPeer; }
  };
  Made request_made_at(double t) {
    auto it = made_.find(t);
    if (it == made_.end() || it->second.empty()) return {};
    const auto made = it->second.front();
    it->second.pop_front();
    return {made.id, made.peer};
  }

  std::uint16_t comm_of(int id) const {
    auto it = comms_.find(id);
    return it == comms_.end() ? 0 : it->second;
  }

  // The send record this call made, or nothing (MPI_PROC_NULL writes none).
  const trace::SendEvent* send_at(double t) {
    if (next_send_ < rank_.sends.size() && rank_.sends[next_send_].time == t) return &rank_.sends[next_send_++];
    return nullptr;
  }

  // The receive record posted at `t`: from `peer` when the call named one.
  const trace::RecvEvent* recv_posted_at(double t, std::int32_t peer = kAny) {
    auto it = by_post_.find(t);
    if (it == by_post_.end() || it->second.empty()) return nullptr;
    auto& list = it->second;
    auto pick = list.begin();
    if (peer >= 0)
      pick = std::find_if(list.begin(), list.end(), [&](std::size_t i) { return rank_.recvs[i].src == peer; });
    if (pick == list.end()) return nullptr;
    const auto i = *pick;
    list.erase(pick);
    return &rank_.recvs[i];
  }

  Op message(OpKind kind, const trace::SendEvent* s, timing::SendMode mode) {
    Op op = send_op(s ? s->dst : kNoPeer, s ? double(s->bytes) : 0, s ? s->tag : 0, mode);
    op.kind = kind;
    if (s) op.comm = comm_of(s->comm);
    return op;
  }

  Op receive(OpKind kind, const trace::RecvEvent* m) {
    Op op = recv_op(m ? m->src : kNoPeer, m ? m->tag : 0);
    op.kind = kind;
    if (m) {
      op.value = double(m->bytes);
      op.comm = comm_of(m->comm);
      if (match_ == Match::simulated && (m->wildcard & trace::kAnySource)) {
        op.peer = kAny;
        op.peer2 = m->src;  // for the kernel's count of changed matches
      }
      if (match_ == Match::simulated && (m->wildcard & trace::kAnyTag)) {
        op.tag = kAny;
        op.tag2 = m->tag;  // the tag it took in the run, as peer2 its source
      }
    }
    return op;
  }

  void call(const std::string& name, const trace::State& s) {
    if (const MessageOp* m = find_message_model_name(name)) {
      switch (m->kind) {
        case OpKind::send: return ops_.push_back(message(OpKind::send, send_at(s.begin), m->mode));
        case OpKind::isend: return post_isend(s);
        case OpKind::recv: return ops_.push_back(receive(OpKind::recv, recv_posted_at(s.begin)));
        case OpKind::irecv: return post_irecv(s);
        case OpKind::sendrecv: return ops_.push_back(exchange(s));
        case OpKind::wait: return wait(s);
        default: break;
      }
    }
    // MPI_Isendrecv's trace has an MPI_Isend's records and then an MPI_Irecv's.
    if (name == "isendrecv") return post_isend(s), post_irecv(s);
    if (name == "test") return wait(s);
    if (next_collective_ < rank_.collectives.size() && rank_.collectives[next_collective_].begin == s.begin &&
        t_.names[rank_.collectives[next_collective_].op] == name) {
      const auto& c = rank_.collectives[next_collective_++];
      return ops_.push_back(collective_op(program_.intern(name), double(c.bytes), c.root, comm_of(c.comm)));
    }
    // Communicator creation is collective over its parent and priced as one; traces of an earlier
    // shim leave no collective record of it, and the parent is then taken to be the world.
    if (model::creates_communicator(name))
      return ops_.push_back(collective_op(program_.intern(name), 0));
    ++skipped_[name];
  }

  void post_isend(const trace::State& s) {
    const auto made = request_made_at(s.begin);
    ops_.push_back(message(OpKind::isend, made.null() ? nullptr : send_at(s.begin), timing::SendMode::standard));
    outstanding_.push_back({false, s.begin, made.id, made.null()});
  }

  void post_irecv(const trace::State& s) {
    const auto made = request_made_at(s.begin);
    const auto* m = made.null() ? nullptr : recv_posted_at(s.begin, made.peer);
    ops_.push_back(receive(OpKind::irecv, m));
    outstanding_.push_back({true, m ? m->end : s.begin, made.id, made.null()});
  }

  Op exchange(const trace::State& s) {
    const auto* out = send_at(s.begin);
    const auto* in = recv_posted_at(s.begin);
    Op op = sendrecv_op(out ? out->dst : kNoPeer, in ? in->src : kNoPeer, out ? double(out->bytes) : 0,
                        out ? out->tag : 0);
    op.tag2 = in ? in->tag : 0;
    if (out || in) op.comm = comm_of(out ? out->comm : in->comm);
    return op;
  }

  void wait(const trace::State& s) {
    if (rank_.requests.empty()) return wait_oldest(s);
    auto it = completed_.find(s.begin);
    if (it == completed_.end()) return;  // a Test that found nothing complete
    std::vector<std::uint32_t> positions;
    for (const auto id : it->second)
      for (std::size_t i = 0; i < outstanding_.size(); ++i)
        if (outstanding_[i].id == id) positions.push_back(static_cast<std::uint32_t>(i));
    completed_.erase(it);
    if (positions.empty()) return;  // requests the kernel does not model (persistent ones)
    // Requests towards MPI_PROC_NULL are complete at once; MPI may hand them all one handle, so
    // their completions can be missing from the trace. Each wait takes along those still open.
    for (std::size_t i = 0; i < outstanding_.size(); ++i)
      if (outstanding_[i].null) positions.push_back(static_cast<std::uint32_t>(i));
    std::sort(positions.begin(), positions.end());
    positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
    const bool oldest = positions.back() + 1 == positions.size();
    ops_.push_back(oldest ? wait_op(static_cast<std::int32_t>(positions.size()))
                          : wait_set_op(program_.add_wait_set(positions)));
    for (auto i = positions.rbegin(); i != positions.rend(); ++i)
      outstanding_.erase(outstanding_.begin() + static_cast<std::ptrdiff_t>(*i));
  }

  // An older trace does not say which requests a wait completed: the oldest ones, up to the
  // last that had completed by the wait's end.
  void wait_oldest(const trace::State& s) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < outstanding_.size(); ++i)
      if (!outstanding_[i].receive || outstanding_[i].end <= s.end) count = i + 1;
      else break;
    if (count == 0) return ++skipped_["test without completion"], void();
    ops_.push_back(wait_op(static_cast<std::int32_t>(count)));
    outstanding_.erase(outstanding_.begin(), outstanding_.begin() + static_cast<std::ptrdiff_t>(count));
  }

  const trace::Trace& t_;
  const RankTrace& rank_;
  const std::map<int, std::uint16_t>& comms_;
  FlatProgram& program_;
  double scale_;
  Match match_;
  std::map<std::string, long>& skipped_;
  std::map<double, std::deque<std::size_t>> by_post_;
  std::map<double, std::deque<trace::RequestEvent>> made_;
  std::map<double, std::vector<std::uint32_t>> completed_;
  std::size_t next_send_ = 0, next_collective_ = 0;
  std::deque<Outstanding> outstanding_;
  std::vector<Op> ops_;
};

}  // namespace

Replay replay_program(const trace::Trace& t, double compute_scale, Match match) {
  if (t.nranks() < 1) throw std::invalid_argument("the trace has no ranks");
  Replay out;
  out.program = std::make_unique<FlatProgram>(t.nranks());
  const auto comms = communicators(t, *out.program);
  for (int r = 0; r < t.nranks(); ++r) {
    RankReader reader(t, t.ranks[r], comms, *out.program, compute_scale, match, out.skipped);
    out.program->assign(r, r, out.program->add_body(reader.read()));
    out.never_completed += reader.never_completed();
  }
  return out;
}

}  // namespace augur::sim
