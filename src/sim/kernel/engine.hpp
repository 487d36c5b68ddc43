#pragma once
// The kernel's state and its parts, shared by the files that implement the engine:
// engine.cpp (the event loop and the operations), engine_wait.cpp (waits), matching.cpp
// (messages, requests, matching), engine_transfers.cpp (messages in flight on the network),
// send_order.cpp, loggops_order.cpp, collectives.cpp and deadlock.cpp. Internal to
// src/sim/kernel: use kernel.hpp.
#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/kernel/event_queue.hpp"
#include "sim/kernel/kernel.hpp"
#include "sim/kernel/queues.hpp"

namespace augur::sim {

// Op::flags bit of messages inside an expanded collective: they match only each other.
inline constexpr std::uint8_t kInternal = 0x80;
// Whether a message goes to (or comes from) a rank: MPI_PROC_NULL names none.
inline bool has_peer(std::int32_t peer) { return peer != kNoPeer; }

// Names the run report uses for point-to-point calls; collectives follow at kFixedNames.
enum Name : std::uint16_t { n_send, n_ssend, n_rsend, n_bsend, n_recv, n_isend, n_irecv, n_wait, n_sendrecv, kFixedNames };

struct Message {
  double start = 0, bytes = 0;
  double arrival = 0;  // when it reaches its receiver; infinity while its transfer is in flight
  double taken = 0, handled = 0;  // LogGOPS: when its receiver's processor took it, and was done
  std::int32_t src = 0, dst = 0, tag = 0;
  std::uint32_t sender_request = kNil;  // a rendezvous: the sender's request, completed at the match
  std::uint32_t next = kNil;            // receiver's unexpected queue; the free list
  std::uint32_t next_sent = kNil;       // its pair's messages in transfer, in the order sent
  std::uint32_t order = kNil;           // networks with transfers: its pair's PairOrder
  std::uint16_t comm = 0;
  bool rendezvous = false, internal = false;
  bool carrying = false;  // networks with transfers: a rendezvous matched, its data in transfer
};

struct Request {
  double post = 0;    // receive: when posted; send: when started
  double end = 0;     // completion, once done
  double halves = 0;  // receive: end by the halves' rule; send: end without waiting for the receiver
  double bytes = 0;
  std::int32_t rank = 0, peer = kAny, tag = kAny;  // a receive matches (peer, tag); then holds the source
  std::int32_t recorded = kAny;  // a wildcard receive replayed from a trace: the source it had there
  double in_start = 0;           // a matched receive: when its message was sent
  std::uint8_t wildcard = 0;     // trace::kAnySource, kAnyTag: what the receive left open
  bool unsettled = false;        // matched, its end not yet decided (settle_receive)
  std::uint32_t next = kNil;         // the rank's outstanding requests, in order; the free list
  std::uint32_t next_posted = kNil;  // the rank's posted receives
  std::uint16_t comm = 0;
  bool receive = false, done = false, awaited = false, internal = false;
};

enum class Status : std::uint8_t { ready, blocked, done };

// MPI's non-overtaking rule holds per (sender, receiver, communicator): one sender's messages
// to one receiver on one communicator arrive in the order sent, and nothing orders the others.
// One per pair with messages still to arrive, on its sender's list (send_order.cpp).
struct PairOrder {
  double last = 0;  // the arrival of the pair's latest message
  std::uint32_t head = kNil, tail = kNil;  // its messages in transfer, in the order sent
  std::uint32_t next = kNil;               // the sender's list; the free list
  std::int32_t dst = 0;
  std::uint16_t comm = 0;
  bool internal = false;
};

struct RankState {
  double now = 0;
  double nic_free = 0;  // when its next message may leave (networks with a gap)
  double link_free = 0;  // when its next message leaves the link (Network::departure)
  double last_arrival = 0;  // the latest arrival of its messages (networks without transfers)
  // LogGOPS (Network::handles_on_arrival): when its processor is free of its own operations and
  // of the messages it handles, and when it may take its next incoming message (the gap); the
  // latest end of its operations, its finish.
  double cpu_free = 0, receive_free = 0, done = 0;
  // The call in progress: its begin, latest completion, bytes, and the parts a report needs.
  double begin = 0, end = 0, bytes = 0, halves = 0, send_end = 0;
  double collective_begin = 0, collective_waiting = 0;  // an expanded collective
  std::uint32_t pc = 0;
  std::uint32_t step = 0;     // 1 + the step inside an expanded collective; 0 outside
  std::uint32_t pending = 0;  // requests the call still waits for
  std::uint32_t requests_head = kNil, requests_tail = kNil;  // outstanding, oldest first
  std::uint32_t posted_head = kNil, posted_tail = kNil;
  std::uint32_t unexpected_head = kNil, unexpected_tail = kNil;
  std::uint32_t orders_head = kNil;  // its pairs' PairOrders, newest first
  std::uint32_t orders = 0, orders_prune_at = 4;  // how many; when to drop those that are over
  // Its latest completed receive's source and tag: a reply's destination, a loop's exit.
  std::int32_t last_source = kNoPeer, last_tag = kAny;
  Status status = Status::ready;
  // LogGOPS: the next operation is already queued (a non-blocking call queues it as it starts);
  // a wait's requests are complete and its own step waits for the processor; a sendrecv's send
  // half waits for the processor or the gap.
  bool released = false, wait_queued = false, send_deferred = false;
  Op call;  // the blocked call, kept so its completion need not fetch or expand it again
};

// One collective in progress on a communicator (priced whole).
struct CollectiveInstance {
  int arrived = 0;
  std::uint16_t name = 0;
  double latest = 0, root_start = 0, bytes = 0;
};

class Engine {
 public:
  Engine(const Program& program, const Network& network, const Options& options, TraceSink* trace);
  Result run();

 private:
  // engine.cpp: the loop and each operation.
  void execute(int rank, const Event* resumed = nullptr);
  bool runs_next(double time, int rank) const;  // nothing pending comes before (time, rank)
  bool current_op(int rank, Op& op);  // the operation at pc, or the step of an expanded collective
  bool perform(int rank, const Op& op);  // false: the rank blocked
  void compute(int rank, const Op& op);
  bool blocking_send(int rank, const Op& op);
  void isend(int rank, const Op& op);
  bool blocking_recv(int rank, const Op& op);
  void irecv(int rank, const Op& op);
  bool sendrecv(int rank, const Op& op);
  void send_half(int rank, const Op& op);
  bool deferred_send_half(int rank, const Op& op);
  bool wait(int rank, const Op& op);
  void take_awaited(RankState& rs, std::uint32_t id);
  static void note_received(RankState& rs, const Request& r);  // a reply's destination, a loop's exit
  void advance(int rank, double end);  // the call ended at `end`: on to the next operation
  void finish_call(int rank);           // the blocked call's last request completed
  void account(int rank, std::uint16_t name, double begin, double end, double waiting, double bytes);
  std::string_view name_of(std::uint16_t name) const;

  // loggops_order.cpp: a rank's operations queued as LogGOPSim queues a chain of GOAL vertices.
  void push_resume(double time, int rank);
  double busy_until(const RankState& rs, const Op& op) const;
  void release(int rank, double done);
  void requeue(int rank, double time);
  bool take_own_resume(int rank);
  void queue_wait_step(int rank);
  void end_wait_step(int rank);
  bool handle_arrival(const Event& e);  // false: the processor is busy, the message comes back later

  // matching.cpp
  std::uint32_t new_request(int rank, bool receive, const Op& op);
  void free_request(std::uint32_t id);
  void enqueue_request(RankState& rs, std::uint32_t id);
  std::uint32_t send_message(int rank, const Op& op, bool rendezvous);  // returns the message
  void post_receive(std::uint32_t request);
  void deliver(const Event& e);
  void transfer(int rank, std::uint32_t message);  // networks with transfers: in the sender's order
  void transfers_end(double time);                 // the network event: transfers due now end
  void release_sent(std::uint32_t order);          // deliver the pair's arrived messages in order
  void schedule_transfers();
  void transfers_changed(double now);  // a settle event at `now`, or the next end's at once
  void settle_transfers(double time);  // the settle event
  void complete_receive(std::uint32_t request, std::uint32_t message);
  void carry_data(std::uint32_t request, std::uint32_t message);  // networks with transfers
  void end_message(std::uint32_t request, std::uint32_t message, double halves, double sender_end);
  void complete(std::uint32_t request);
  void settle_receive(Request& r);
  // send_order.cpp
  double ordered_arrival(int rank, const Message& m, double arrival);
  std::uint32_t find_order(int rank, const Message& m, double now);
  std::uint32_t add_order(int rank, const Message& m);
  void prune_orders(int rank, double now);
  void drop_order(RankState& rs, std::uint32_t previous, std::uint32_t id);

  timing::Flight own_last_send(int rank, std::uint16_t comm, int peer) const;
  void note_send(int rank, std::uint16_t comm, int peer, timing::Flight flight);

  // collectives.cpp
  bool collective(int rank, const Op& op);
  void complete_collective(std::uint16_t comm);
  bool expanded_step(int rank, const Op& collective, std::uint32_t step, Op& op) const;
  void end_expansion(int rank, const Op& collective);
  void resolve_algorithms();

  // deadlock.cpp
  [[noreturn]] void report_deadlock();
  std::string describe_blocked(int rank);
  void warn_unreceived(Result& result) const;

  const Program& program_;
  const Network& net_;
  const Options& options_;
  TraceSink* trace_;
  EventQueue queue_;
  std::vector<RankState> ranks_;
  std::vector<RankTotals> totals_;
  std::vector<std::uint64_t> computes_;  // with Options::compute_delay: compute grains run, per rank
  std::vector<OperationTotals> op_totals_;
  std::vector<Message> messages_;
  std::vector<Request> requests_;
  std::vector<PairOrder> orders_;
  std::uint32_t free_message_ = kNil, free_request_ = kNil, free_order_ = kNil;
  std::vector<CollectiveInstance> collectives_;  // by communicator
  std::vector<Algorithm> algorithms_;            // by collective name
  std::unordered_map<std::uint64_t, timing::Flight> last_sends_;  // (rank, comm, peer) -> latest send
  Transfers* transfers_ = nullptr;
  const timing::Rules* crossing_ = nullptr;  // net_.crossing_rules(), asked once: it is asked at every message
  bool handles_ = false;                     // net_.handles_on_arrival()
  // LogGOPS: the running rank's resume event, kept to be put back in its place when the
  // operation must wait for the processor; absent when the rank started without one.
  Event resume_{};
  bool has_resume_ = false;
  double network_event_ = -1;  // the time of the network event queued and not yet taken, else -1
  double settle_event_ = -1;   // the same for the settle event
  int running_ = -1;  // the rank being executed, which goes on without an event
  int next_start_ = 0;  // ranks start at time 0 in rank order, as if each had an event queued first
  int finished_ = 0;
  std::uint64_t events_ = 0, operations_ = 0, message_count_ = 0;
  std::uint64_t wildcards_ = 0, changed_matches_ = 0;  // replayed wildcard receives; those matched anew
};

}  // namespace augur::sim
