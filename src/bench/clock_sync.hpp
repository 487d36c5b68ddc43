#pragma once
// Clocks of a group brought to one time base: each rank's offset from group rank 0's clock,
// estimated from ping-pongs as ReproMPI and SKaMPI do. With the offsets, a time window can start
// a repetition on every rank at the same instant, and the spread of the actual start times (the
// achieved skew) can be measured in either synchronisation mode.
#include "bench/group.hpp"

namespace augur::bench {

struct ClockOffset {
  double offset = 0;       // this rank's clock minus rank 0's, seconds (0 on rank 0)
  double uncertainty = 0;  // half the best round trip behind the estimate; the largest over the group
};

// Collective over the group. Offsets are estimated afresh for every point, which bounds the error
// from clock drift by the drift over one point's duration.
ClockOffset estimate_clock_offset(const Group& group);

// This rank's clock in rank 0's time base.
inline double global_time(double local, const ClockOffset& clock) { return local - clock.offset; }

}  // namespace augur::bench
