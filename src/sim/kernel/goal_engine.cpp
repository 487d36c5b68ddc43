// The kernel's dependency-graph mode: runs a GOAL schedule (goal.hpp) vertex by vertex. A vertex
// is ready when what it requires is done and what it irequires has started; it then takes its
// rank's processor when that is free (LogGOPSim's o is a busy processor: calc, a send's overhead
// and a receive's last overhead are served one at a time, in the order they became ready).
// Messages are priced by the Network as in the sequence kernel: a send hands its message over at
// send_end. On LogGOPS (Network::handles_on_arrival) the message reaches its receiver at
// `arrival`, whose processor handles it once free, as LogGOPSim does; a receive ends when its
// message has been handled, or when posted if that is later. Otherwise its envelope arrives when
// the receiver's own overhead (recvmin) can begin, and a receive ends at receive_end, its last
// recvmin on the processor.
#include <algorithm>

#include <fmt/format.h>

#include "sim/kernel/event_queue.hpp"
#include "sim/kernel/kernel.hpp"
#include "sim/kernel/queues.hpp"
#include "timing/steps.hpp"

namespace augur::sim {
namespace {

struct GoalMessage {
  double start = 0, bytes = 0;
  double taken = 0, handled = 0;  // LogGOPS: when its receiver's processor took it, and was done
  std::int32_t src = 0, dst = 0, tag = 0;
  std::uint32_t sender = kNil;  // the send vertex, when it waits for its receiver
  std::uint32_t next = kNil;    // the receiver's unexpected queue; the free list
};

struct GoalRank {
  double cpu_free = 0, nic_free = 0, link_free = 0, last_deliver = 0, finish = 0;
  double receive_free = 0;  // LogGOPS: when its next incoming message may be handled (the gap)
  std::uint32_t left = 0;   // vertices not yet done
  std::uint32_t posted_head = kNil, posted_tail = kNil;
  std::uint32_t unexpected_head = kNil, unexpected_tail = kNil;
};

enum class VertexState : std::uint8_t { waiting, started, done };

class GoalEngine {
 public:
  GoalEngine(const GoalProgram& program, const Network& net, const Options& options, TraceSink* trace)
      : program_(program), net_(net), options_(options), trace_(trace), handles_(net.handles_on_arrival()) {
    if (net.transfers()) throw std::invalid_argument("GOAL schedules run on the model or loggops network, not on a topology");
    const auto n = program.vertices().size();
    waiting_.resize(n);
    time_.assign(n, 0);
    state_.assign(n, VertexState::waiting);
    next_posted_.assign(n, kNil);
    ranks_.resize(static_cast<std::size_t>(program.nranks()));
    if (options_.compute_delay) computes_.assign(static_cast<std::size_t>(program.nranks()), 0);
    for (int r = 0; r < program.nranks(); ++r) {
      ranks_[static_cast<std::size_t>(r)].left = program.first_vertex(r + 1) - program.first_vertex(r);
      if (ranks_[static_cast<std::size_t>(r)].left == 0) ++finished_ranks_;  // no body: done at 0
    }
    totals_.resize(static_cast<std::size_t>(program.nranks()));
    queue_.reserve(std::min<std::size_t>(2 * n + 1024, std::size_t(1) << 26));
  }

  Result run() {
    const auto& vs = program_.vertices();
    for (std::uint32_t v = 0; v < vs.size(); ++v) waiting_[v] = program_.dependency_count(v);
    for (int r = 0; r < program_.nranks(); ++r) queue_initial(r);
    while (!queue_.empty()) {
      const Event e = queue_.pop();
      ++events_;
      if (e.type == EventType::deliver) deliver(e);
      else if (e.type == EventType::finish) finish_receive(e.payload, e.time);
      else begin(e);
      if (options_.progress && events_ % options_.progress_every == 0)
        options_.progress({events_, e.time, finished_ranks_, program_.nranks(), done_});
    }
    if (done_ < vs.size()) report_deadlock();
    return result();
  }

 private:
  // The links of the rank's queues (queues.hpp): unexpected messages, posted receive vertices.
  auto message_link() {
    return [this](std::uint32_t m) -> std::uint32_t& { return messages_[m].next; };
  }
  auto posted_link() {
    return [this](std::uint32_t v) -> std::uint32_t& { return next_posted_[v]; };
  }

  // On LogGOPS, events of one time go in the order they were queued, whatever their rank, as in
  // LogGOPSim; otherwise the lower rank's first, as in the sequence kernel.
  std::uint32_t key(std::int32_t rank) const { return handles_ ? 0 : static_cast<std::uint32_t>(rank); }

  // A rank's vertices that need nothing, at time 0; on LogGOPS sends, then receives, then calcs,
  // the order in which LogGOPSim queues them.
  void queue_initial(int r) {
    const auto first = program_.first_vertex(r), last = program_.first_vertex(r + 1);
    for (const GoalOp op : {GoalOp::send, GoalOp::recv, GoalOp::calc}) {
      for (auto v = first; v < last; ++v)
        if (waiting_[v] == 0 && (!handles_ || program_.vertices()[v].op == op)) queue_.push(0, key(r), EventType::resume, v);
      if (!handles_) return;
    }
  }

  // When the vertex's processor (and on LogGOPS a send's gap) is free.
  double free_at(const GoalVertex& vx, const GoalRank& rs) const {
    return handles_ && vx.op == GoalOp::send ? std::max(rs.cpu_free, rs.nic_free) : rs.cpu_free;
  }

  // When a vertex queued for `t` starts. On LogGOPS a receive is posted at the time it was queued
  // with (its processor's then, release()), as LogGOPSim posts it.
  double ready(const GoalVertex& vx, const GoalRank& rs, double t) const {
    return handles_ && vx.op == GoalOp::recv ? t : std::max(t, free_at(vx, rs));
  }

  void begin(const Event& e) {
    const auto v = e.payload;
    const auto& vx = program_.vertices()[v];
    auto& rs = ranks_[static_cast<std::size_t>(vx.rank)];
    const double start = ready(vx, rs, e.time);
    if (handles_ && start > e.time) return queue_.push_again(e, start);  // LogGOPSim's retry
    started(v, start);
    switch (vx.op) {
      case GoalOp::calc: {
        double end = start + vx.value / net_.compute_speed(vx.rank) * options_.compute_scale;
        if (options_.compute_delay)
          end += std::max(0.0, options_.compute_delay(vx.rank, computes_[static_cast<std::size_t>(vx.rank)]++));
        if (handles_) end = whole_picoseconds(end);
        rs.cpu_free = end;
        totals_[vx.rank].compute += end - start;
        if (trace_ && end > start) trace_->state(vx.rank, start, end, trace::StateKind::compute, {});
        return finished(v, end);
      }
      case GoalOp::send: return send(v, start);
      case GoalOp::recv: return post(v, start);
    }
  }

  void send(std::uint32_t v, double start) {
    const auto& vx = program_.vertices()[v];
    auto& rs = ranks_[static_cast<std::size_t>(vx.rank)];
    const Network& net = net_.between(vx.rank, vx.peer);
    const bool rendezvous = net.waits_for_receiver(timing::SendMode::standard, vx.value);
    const double handed = net.send_end(rs.nic_free, timing::SendMode::standard, start, vx.value);
    rs.cpu_free = handed;
    account(vx.rank, send_, start, handed, 0, vx.value);
    const auto m = new_message();
    auto& msg = messages_[m];
    msg = {net.departure(rs.link_free, start, vx.value), vx.value, 0, 0, vx.rank, vx.peer, vx.tag, rendezvous ? v : kNil, kNil};
    if (trace_) trace_->send(vx.rank, start, vx.peer, vx.tag, vx.value, 0);
    ++messages_sent_;
    // The sender's messages reach their receivers in the order sent (MPI's non-overtaking).
    const double at = std::max({net.arrival(msg.start, rendezvous, vx.value) - (rendezvous ? 0 : net.recvmin(vx.value)),
                                rs.last_deliver, start});
    rs.last_deliver = at;
    queue_.push(at, key(vx.peer), EventType::deliver, m);
    if (rendezvous) time_[v] = handed;
    else finished(v, handed);
  }

  void post(std::uint32_t v, double start) {
    const auto& vx = program_.vertices()[v];
    auto& rs = ranks_[static_cast<std::size_t>(vx.rank)];
    time_[v] = start;  // the post
    rs.cpu_free = std::max(rs.cpu_free, start + net_.between(vx.peer, vx.rank).irecv_post(vx.value));
    const auto m = unlink_first(rs.unexpected_head, rs.unexpected_tail, message_link(),
                                [&](std::uint32_t i) { return matches(vx, messages_[i]); });
    if (m != kNil) return match(v, m, start);
    append(rs.posted_head, rs.posted_tail, posted_link(), v);
  }

  void deliver(const Event& e) {
    const auto m = e.payload;
    const double now = e.time;
    auto& rs = ranks_[static_cast<std::size_t>(messages_[m].dst)];
    if (handles_ && !handle(e)) return;
    const auto v = unlink_first(rs.posted_head, rs.posted_tail, posted_link(),
                                [&](std::uint32_t i) { return matches(program_.vertices()[i], messages_[m]); });
    if (v != kNil) return match(v, m, now);
    append(rs.unexpected_head, rs.unexpected_tail, message_link(), m);
  }

  // LogGOPS: the receiver's processor takes the message when free and past the gap since the
  // previous one (else the message comes back then, as LogGOPSim puts it back in its queue).
  bool handle(const Event& e) {
    auto& msg = messages_[e.payload];
    auto& rs = ranks_[static_cast<std::size_t>(msg.dst)];
    const double free = std::max(rs.cpu_free, rs.receive_free), now = e.time;
    if (free > now) {
      queue_.push_again(e, free);
      return false;
    }
    const Network& net = net_.between(msg.src, msg.dst);
    msg.taken = now;
    msg.handled = whole_picoseconds(now + net.arrival_overhead(msg.bytes));
    rs.cpu_free = msg.handled;
    rs.receive_free = whole_picoseconds(now + net.receive_gap(msg.bytes));
    return true;
  }

  static bool matches(const GoalVertex& r, const GoalMessage& m) {
    return (r.peer == kAny || r.peer == m.src) && (r.tag == kAny || r.tag == m.tag);
  }

  void match(std::uint32_t v, std::uint32_t m, double now) {
    const GoalMessage msg = messages_[m];
    messages_[m].next = free_message_;
    free_message_ = m;
    const bool rendezvous = msg.sender != kNil;
    const double post = time_[v];
    if (handles_) return take_handled(v, msg, post);
    const Network& net = net_.between(msg.src, msg.dst);
    const double end = net.receive_end(post, msg.start, rendezvous, msg.bytes);
    if (rendezvous)
      finished(msg.sender, timing::waited_send(time_[msg.sender], net.waiting_send_end(msg.start, post, msg.bytes)).end);
    time_[v] = end;
    pending_.push_back({v, post, msg.bytes, msg.src, msg.tag});
    queue_.push(std::max(now, end - net.recvmin(msg.bytes)), key(program_.vertices()[v].rank),
                EventType::finish, static_cast<std::uint32_t>(pending_.size() - 1));
  }

  // LogGOPS: the receive ends when its message has been handled, or at its post if later; a
  // sender waiting for it is released when the receive takes the message.
  void take_handled(std::uint32_t v, const GoalMessage& msg, double post) {
    const auto& vx = program_.vertices()[v];
    const double end = std::max(post + net_.between(msg.src, msg.dst).recvmin(msg.bytes), msg.handled);
    time_[v] = end;
    account(vx.rank, recv_, post, end, msg.taken - post, msg.bytes);
    if (trace_) trace_->recv(vx.rank, post, end, msg.src, msg.tag, msg.bytes, 0, vx.peer == kAny ? trace::kAnySource : 0);
    const bool sender_first = msg.sender != kNil && msg.src < vx.rank;  // LogGOPSim frees hosts in rank order
    const auto release_sender = [&] {
      finished(msg.sender, timing::waited_send(time_[msg.sender], std::max(post, msg.taken)).end);
    };
    if (sender_first) release_sender();
    finished(v, end);
    if (msg.sender != kNil && !sender_first) release_sender();
  }

  // A matched receive's last overhead takes the processor.
  void finish_receive(std::uint32_t slot, double t) {
    const auto p = pending_[slot];
    const auto& vx = program_.vertices()[p.vertex];
    auto& rs = ranks_[static_cast<std::size_t>(vx.rank)];
    const double overhead = net_.between(p.src, vx.rank).recvmin(p.bytes);
    const double end = std::max(time_[p.vertex], std::max(t, rs.cpu_free) + overhead);
    rs.cpu_free = end;
    account(vx.rank, recv_, p.post, end, end - p.post - overhead, p.bytes);
    if (trace_) trace_->recv(vx.rank, p.post, end, p.src, p.tag, p.bytes, 0, vx.peer == kAny ? trace::kAnySource : 0);
    finished(p.vertex, end);
  }

  void started(std::uint32_t v, double t) {
    state_[v] = VertexState::started;
    release(v, t, true);
  }

  void finished(std::uint32_t v, double t) {
    state_[v] = VertexState::done;
    ++done_;
    auto& rs = ranks_[static_cast<std::size_t>(program_.vertices()[v].rank)];
    rs.finish = std::max(rs.finish, t);
    if (--rs.left == 0) ++finished_ranks_;
    release(v, t, false);
  }

  void release(std::uint32_t v, double t, bool on_start) {
    for (const auto d : program_.dependents(v)) {
      if (bool(d & 1) != on_start) continue;
      const auto w = d >> 1;
      time_[w] = std::max(time_[w], t);
      if (--waiting_[w] != 0) continue;
      const auto& wx = program_.vertices()[w];
      // LogGOPS: queued for when its processor is free now, which is when LogGOPSim posts a receive.
      if (handles_) time_[w] = std::max(time_[w], free_at(wx, ranks_[static_cast<std::size_t>(wx.rank)]));
      queue_.push(time_[w], key(wx.rank), EventType::resume, w);
    }
  }

  void account(int rank, OperationTotals& t, double begin, double end, double waiting, double bytes) {
    ++t.count;
    t.bytes += bytes;
    t.seconds += end - begin;
    t.waiting += std::max(0.0, waiting);
    totals_[rank].mpi += end - begin;
    totals_[rank].waiting += std::max(0.0, waiting);
    if (trace_) trace_->state(rank, begin, end, trace::StateKind::mpi, &t == &send_ ? "send" : "recv");
  }

  std::uint32_t new_message() {
    if (free_message_ == kNil) {
      messages_.emplace_back();
      return static_cast<std::uint32_t>(messages_.size() - 1);
    }
    const auto m = free_message_;
    free_message_ = messages_[m].next;
    return m;
  }

  std::string describe(std::uint32_t v) const {
    const auto& vx = program_.vertices()[v];
    const auto peer = [](std::int32_t p) { return p == kAny ? std::string("any") : std::to_string(p); };
    const std::string what = vx.op == GoalOp::send   ? fmt::format("send {} B to {} tag {}", vx.value, vx.peer, vx.tag)
                             : vx.op == GoalOp::recv ? fmt::format("recv {} B from {} tag {}", vx.value, peer(vx.peer), vx.tag == kAny ? "any" : std::to_string(vx.tag))
                                                     : fmt::format("calc {} ns", vx.value * 1e9);
    return fmt::format("{} ({})", what, state_[v] == VertexState::started ? "no message matched it" : "waits for its dependencies");
  }

  [[noreturn]] void report_deadlock() const {
    std::string text = fmt::format("deadlock: {} of {} GOAL vertices never completed", program_.vertices().size() - done_,
                                   program_.vertices().size());
    int shown = 0;
    for (int r = 0; r < program_.nranks() && shown < 8; ++r)
      for (auto v = program_.first_vertex(r); v < program_.first_vertex(r + 1); ++v)
        if (state_[v] != VertexState::done) {
          text += fmt::format("\n  rank {}: {}", r, describe(v));
          ++shown;
          break;
        }
    throw DeadlockError(text);
  }

  Result result() {
    Result r;
    for (std::size_t i = 0; i < ranks_.size(); ++i) {
      totals_[i].finish = ranks_[i].finish;
      r.predicted = std::max(r.predicted, ranks_[i].finish);
    }
    r.ranks = std::move(totals_);
    if (send_.count > 0) r.operations["send"] = send_;
    if (recv_.count > 0) r.operations["recv"] = recv_;
    r.events = events_;
    r.operations_run = done_;
    r.messages = messages_sent_;
    std::uint64_t unreceived = 0;
    for (const auto& rs : ranks_)
      for (auto m = rs.unexpected_head; m != kNil; m = messages_[m].next) ++unreceived;
    if (unreceived > 0) r.warnings.push_back(fmt::format("{} messages were sent and never received", unreceived));
    return r;
  }

  struct PendingReceive {
    std::uint32_t vertex;
    double post, bytes;
    std::int32_t src, tag;
  };

  const GoalProgram& program_;
  const Network& net_;
  const Options& options_;
  TraceSink* trace_;
  EventQueue queue_;
  std::vector<std::uint32_t> waiting_;  // dependencies not yet met, per vertex
  std::vector<double> time_;            // when it may start; a receive's post, then its end; a waiting send's hand-over
  std::vector<VertexState> state_;
  std::vector<std::uint32_t> next_posted_;
  std::vector<GoalRank> ranks_;
  std::vector<RankTotals> totals_;
  std::vector<std::uint64_t> computes_;  // with Options::compute_delay: compute vertices run, per rank
  std::vector<GoalMessage> messages_;
  std::vector<PendingReceive> pending_;
  std::uint32_t free_message_ = kNil;
  OperationTotals send_, recv_;
  std::uint64_t events_ = 0, done_ = 0, messages_sent_ = 0;
  int finished_ranks_ = 0;  // ranks whose every vertex is done
  bool handles_;  // net_.handles_on_arrival()
};

}  // namespace

Result simulate(const GoalProgram& program, const Network& network, const Options& options, TraceSink* trace) {
  GoalEngine engine(program, network, options, trace);
  return engine.run();
}

}  // namespace augur::sim
