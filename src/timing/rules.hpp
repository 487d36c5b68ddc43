#pragma once
// The timing rules: what a send, a receive or a collective costs in virtual time on a modelled
// machine. They are pure functions of the model and of event times, shared by the reverse
// profiler and the simulator so both predict the same number for the same program.
//
// Point-to-point generalises the seed's rule (howell-thesis.md §2.4):
//   receive end = max(T_post + t_recvmin(d), T_send_start + t_transit(d))
// where t_transit is the model's `pingpong`: half the round trip of back-to-back ping-pongs, the
// one-way time of a message in a program's loop. The model's `recv` (one message timed from a
// common start) stands in when there is no ping-pong; it reads higher where the first message
// after a pause wakes the path up (Open MPI over TCP here: 11 µs against 8 µs in a loop).
// A send that waits for its receiver (synchronous, or above the eager limit) cannot start the
// transfer before the receive is posted: both sides measure from max(T_send_start, T_post).
// A message crossed the receiver's own latest send to its sender when each was still in flight
// when the other started; a message is in flight from its send start for t_transit of its size:
//   crossed  <=>  T_own < T_send_start + t_transit(d)  and  T_send_start < T_own + t_transit(d_own)
// where T_own and d_own are the start and size of the receiver's own send. Such a message
// travelled while the other direction was busy too: its receive ends no earlier than the earlier
// of the post and T_own + t_exchange(d), the model's `exchange` (a pair's Irecv, Isend and
// Waitall). A reply never crosses its request, whatever their sizes: the reply starts no earlier
// than the request's receive ends, which is at least T_own + t_transit(d_own), and the bound is
// strict. Nor does a message cross a send of ours started when it had already arrived.
// A sender's messages leave no closer together than their bytes over the model's
// network.bandwidth (LogGP's gap per byte): a message leaves at
//   T_depart = max(T_send_start, T_link_free),  then  T_link_free = T_depart + d / bandwidth,
// and T_depart stands for its send start in the rules above. The ping-pong's transit is one
// message's; a stream of them can go no faster than the link carries bytes, which over a
// rate-limited link is far below what a few messages inside its burst allowance show (Open MPI
// over a 1 Gbit/s loopback with a 256 KB burst: a 4 KiB message in 12.9 µs one way, a request of
// 4 bytes answered by 4 KiB every 34.3 µs in a loop, 33.8 µs of 4 KiB at 121 MB/s).
// A Sendrecv with a partner on both sides ends no earlier than its begin + t_sendrecv(d), the
// model's `sendrecv` (pairs exchanging at once): two directions at a time cost more than one
// message's transit (Open MPI over TCP here: 7.1 µs against 4.1 µs at 16 B; over shared memory
// 0.42 against 0.33 µs).
//
// Collectives (§2.4, extended with roles): every rank's start time is known; the operation
// takes T_op(p, d) from the model, and
//   all-to-all shapes (allreduce, barrier …): everyone leaves at the latest start + T_op;
//   one-to-all (bcast, scatter): the root leaves at its start + T_op, others at
//                                max(own start, root start + T_op);
//   all-to-one (reduce, gather): the root leaves at the latest start + T_op, others at
//                                own start + T_op.
// When the model has per-role times of a rooted collective (bcast_root, bcast_others …), the
// root's T_op is its own role's and the others' theirs, instead of the whole operation's.
#include <array>
#include <functional>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "model/model.hpp"
#include "timing/times.hpp"

namespace augur::timing {

enum class SendMode { standard, synchronous, ready, buffered };
enum class CollectiveShape { all_to_all, one_to_all, all_to_one };

CollectiveShape shape_of(std::string_view collective);

template <class V>
struct BasicCollectiveStarts {
  V latest{};  // the latest start over all ranks of the communicator
  V root{};    // the root's start (rooted operations)
};
using CollectiveStarts = BasicCollectiveStarts<double>;

template <class V>
V collective_end(CollectiveShape shape, bool is_root, const std::type_identity_t<V>& own_start,
                 const BasicCollectiveStarts<V>& starts, const std::type_identity_t<V>& duration) {
  switch (shape) {
    case CollectiveShape::one_to_all:
      return is_root ? own_start + duration : later(own_start, starts.root + duration);
    case CollectiveShape::all_to_one:
      return is_root ? starts.latest + duration : own_start + duration;
    case CollectiveShape::all_to_all:
      break;
  }
  return starts.latest + duration;
}

// One message between a pair of ranks, as the crossing rule sees it.
template <class V>
struct BasicFlight {
  V start = uniform<V>(-std::numeric_limits<double>::infinity());  // the send's start; never sent: -inf
  double bytes = 0;
};
using Flight = BasicFlight<double>;

// An operation the model lacks and what prices it instead: another of the model's operations,
// a tree of one-way messages (a collective the model has no relative of), or nothing.
struct StandIn {
  std::string operation;  // the model's name of what was asked
  std::string priced_as;  // the model's name of what priced it, or kTreeOfMessages; empty: 0
};
inline constexpr std::string_view kTreeOfMessages = "a tree of messages";

// What was asked of an operation beyond the largest message or group its law was fitted to
// (the model's `measured`), on any clock: those times carry the last regime on, and the report
// says so.
struct Extrapolation {
  double bytes = 0, p = 0;  // the largest asked
  model::MeasuredRange measured;
};

// The rules over V: double prices one clock at the bound given, Times the three clocks at once,
// each operation's three times kept together in one memo entry and computed by one evaluation
// of its law (model::Model::estimate). A clock's times are the same either way, bit for bit.
template <class V>
class BasicRules {
 public:
  using Decision = DecisionsOf<V>;
  using Flight = BasicFlight<V>;

  // Resolves the model's operations once; the per-call methods then cost a few multiplies.
  // `bound` is the one clock's bound; Times has all three and ignores it.
  explicit BasicRules(const model::Model& model, model::Bound bound = model::Bound::avg);

  V send_busy(SendMode mode, double bytes) const;   // sender's time in a blocking send
  V isend_post(double bytes) const { return price(isend1_, 2, bytes); }  // time to post MPI_Isend
  V irecv_post(double bytes) const { return price(irecv1_, 2, bytes); }  // time to post MPI_Irecv
  V transit(double bytes) const { return price(transit_, 2, bytes); }
  // One-sided communication (the reverse profiler's windows): a transfer to or from a window
  // with the synchronisation that completes it, the model's `put` (a lock epoch of one put, as
  // the bench times it), else a message's transit.
  V one_sided_transfer(double bytes) const { return price(put_, 2, bytes); }
  // Whether the model's `win_fence` holds its epoch's transfers (the bench's does); without it
  // a fence is a barrier that waits for them.
  bool fence_holds_transfers() const { return fence_holds_transfers_; }
  V recvmin(double bytes) const { return price(recvmin_, 2, bytes); }
  // One poll that finds nothing done: MPI_Test* of pending requests, MPI_Iprobe of no message.
  // A program that polls millions of times spends seconds there.
  V test_poll() const { return price(test_, 2, 0); }
  V iprobe_poll() const { return price(iprobe_, 2, 0); }
  // The same on every clock: the eager limit is the machine's, not a bound's.
  bool waits_for_receiver(SendMode mode, double bytes) const;
  // When a message sent at `start` leaves its sender, whose link carries what it sent before
  // until `link_free`; moves `link_free` on by the message's bytes over network.bandwidth. The
  // start itself when the model has no bandwidth.
  V departure(V& link_free, const V& start, double bytes) const;

  V receive_end(const V& post, const V& send_start, bool rendezvous, double bytes) const;
  // Whether `incoming` and the receiver's own latest send to its source crossed (the law above).
  Decision crossed(const Flight& own, const Flight& incoming) const;
  // The end of a receive of `incoming`, posted at `post`, that may have crossed `own`, when the
  // halves' rule alone gives `halves_end`.
  V crossed_receive_end(const V& post, const Flight& own, const Flight& incoming, const V& halves_end) const;
  // The end of a Sendrecv whose halves, priced as a send and a receive, end by `halves_end`.
  // Without `sendrecv` in the model the halves stand alone.
  V sendrecv_end(const V& begin, const V& halves_end, double bytes) const;
  V waiting_send_end(const V& send_start, const V& receiver_post, double bytes) const;

  // T_op(p, d) for a collective, following the fallbacks documented in docs/timing-rules.md.
  V collective_duration(std::string_view op, int p, double bytes) const;
  // The same for one role of a rooted collective, when the model has that role's time.
  V collective_duration(std::string_view op, int p, double bytes, bool is_root) const;

  using StandIn = timing::StandIn;
  static constexpr std::string_view kTreeOfMessages = timing::kTreeOfMessages;
  // Every stand-in resolved from the model, as "rsend <- send" or "isend1 <- 0 (not in the model)".
  std::vector<std::string> substitutions() const;
  // The stand-ins that priced at least one call so far (on any clock): a report lists these,
  // not every operation the model lacks.
  std::vector<StandIn> stand_ins_used() const;

  using Extrapolation = timing::Extrapolation;
  const std::map<std::string, Extrapolation, std::less<>>& extrapolations() const { return extrapolations_; }

  // A query the model cannot answer (a size its laws refuse, a law that fails to evaluate)
  // throws, which is what the simulator wants. The reverse profiler prices calls inside a
  // running program, where a throw would cut short the call's own bookkeeping (its message's
  // envelope, the other requests of a Waitall): there `tell` is told why, and the query is
  // priced as 0.
  using Unanswered = std::function<void(std::string_view reason)>;
  void price_unanswered_as_zero(Unanswered tell) { unanswered_ = std::move(tell); }

 private:
  // An operation as the rules price it. `stand_in` indexes stand_ins_ when something stands in
  // for it, so that pricing it records the use with one store on the per-call path.
  struct Priced {
    const model::Operation* op = nullptr;
    int stand_in = -1;
  };
  V eval(const model::Operation* op, double p, double bytes) const;
  V evaluate(const model::Operation& op, double p, double bytes) const;  // the model's answer, at least 0
  V price(const Priced& priced, double p, double bytes) const;
  // The model's answer; none when it has none and price_unanswered_as_zero was asked.
  std::optional<V> answer(const model::Operation& op, double p, double bytes) const;
  void mark_used(const Priced& priced) const {
    if (priced.stand_in >= 0) used_[priced.stand_in] = 1;
  }
  void note_extrapolation(const model::Operation& op, double p, double bytes) const;
  // The model's `name`, else the first of `fallbacks` it has, else `otherwise` (empty: 0).
  Priced resolve(std::string_view name, std::span<const std::string_view> fallbacks, std::string_view otherwise = {});

  V tree_estimate(std::string_view op, int p, double bytes) const;

  const model::Model& model_;
  model::Bound bound_;
  Priced send_, ssend_, rsend_, bsend_, isend1_, irecv1_, transit_, recvmin_, test_, iprobe_, put_;
  const model::Operation *sendrecv_, *exchange_;
  double seconds_per_byte_ = 0;  // 1 / network.bandwidth; 0: no gap between a sender's messages
  bool fence_holds_transfers_ = false;
  std::map<std::string, Priced, std::less<>> collectives_;
  struct Roles {
    const model::Operation *root = nullptr, *others = nullptr;
  };
  std::map<std::string, Roles, std::less<>> roles_;
  std::vector<StandIn> stand_ins_;
  mutable std::vector<char> used_;  // one per stand-in: it priced a call
  mutable std::map<std::string, Extrapolation, std::less<>> extrapolations_;
  Unanswered unanswered_;
  // Programs repeat the same operations at the same sizes: the last answers, two-way
  // set-associative by (operation, p, bytes), spare the reverse profiler an equation's evaluation (a parsed
  // expression in some models) on nearly every intercepted call. Not shared between threads.
  struct Memo {
    const model::Operation* op = nullptr;
    double p = 0, bytes = -1;
    V seconds{};
  };
  mutable std::array<std::array<Memo, 2>, 32> memo_{};  // 32 sets of two
};

extern template class BasicRules<double>;
extern template class BasicRules<Times>;

// One clock: the simulator's rules, and the single-bound API.
using Rules = BasicRules<double>;
// The reverse profiler's three clocks, min, avg and max, in one pass.
using BoundsRules = BasicRules<Times>;

}  // namespace augur::timing
