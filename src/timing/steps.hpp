#pragma once
// The steps a point-to-point call takes around the rules (rules.hpp), written once for both of
// their callers: the reverse profiler on three clocks (revprof/shim/p2p.cpp, wrap_p2p.cpp) and
// the simulator on one (sim/kernel/matching.cpp, engine.cpp, goal_engine.cpp).
//   A receive ends by the halves' rule (receive_end) when its message is matched and, once the
//   program sees it complete, no earlier than the floor of a message that crossed the receiver's
//   own latest send to its sender (crossed_receive_end). It waited for its message as long as
//   the halves' end passed its post and its own part of the receive (recvmin): the floor of a
//   crossing is the cost of two directions at once, not a wait.
//   A send that does not wait for its receiver ends when its sender's part of the call does
//   (send_call_end); a nonblocking send's request completes then too.
//   A send that waits for its receiver ends when its call alone would, or when the receive
//   releases it (waiting_send_end), whichever is later; it waited for the difference.
//   A Sendrecv ends when its later half does, and with a partner on both sides no earlier than
//   the model's sendrecv (sendrecv_end).
// `rules` is whatever prices the messages by the rules' names (recvmin, sendrecv_end): the
// model's BasicRules, or the simulator's network, which may price them its own way.
#include "timing/rules.hpp"
#include "timing/times.hpp"

namespace augur::timing {

template <class V>
struct CallEnd {
  V end;      // when the call returns
  V waiting;  // the part of it spent waiting for the other side
};

// The end of a send begun at `start` that does not wait for its receiver: its sender's time in
// the call, by its mode.
template <class Rules, class V>
V send_call_end(const Rules& rules, SendMode mode, const V& start, double bytes) {
  return start + rules.send_busy(mode, bytes);
}

// A send that waits for its receiver: `plain` is its end without waiting, `released` when the
// receive lets it go.
template <class V>
CallEnd<V> waited_send(const V& plain, const V& released) {
  const V end = later(released, plain);
  return {end, end - plain};
}

// The part of a receive posted at `post` spent waiting for its message of `bytes`, which ended
// by the halves' rule at `halves_end`.
template <class Rules, class V>
V receive_waiting(const Rules& rules, const V& post, const V& halves_end, double bytes) {
  return later(V{}, halves_end - (post + rules.recvmin(bytes)));
}

// The end of a Sendrecv begun at `begin` whose send half ends at `send_end` and receive half at
// `receive_end` (its begin when it has no source); `bytes`, the larger of its two messages.
template <class Rules, class V>
V sendrecv_call_end(const Rules& rules, const V& begin, const V& send_end, const V& receive_end,
                    bool partners_on_both_sides, double bytes) {
  const V halves = later(send_end, receive_end);
  return partners_on_both_sides ? rules.sendrecv_end(begin, halves, bytes) : halves;
}

}  // namespace augur::timing
