#pragma once
// Measuring one point: warm-up, then repetitions in batches until the median is precise enough
// or the point's limits are reached. Each repetition is synchronised by a barrier, and its time
// is the largest over the group of the ranks' own times (first start to last finish when the
// barrier releases everyone together). A repetition during which the operating system preempted
// any rank is discarded: on a shared node it would time the scheduler, not MPI.
#include <cstdint>

#include "bench/buffers.hpp"
#include "bench/group.hpp"
#include "bench/kernel.hpp"
#include "bench/statistics.hpp"

namespace augur::bench {

struct PointResult {
  Summary summary;            // on group rank 0
  double ci_halfwidth = 0;    // relative, of the median
  int discarded = 0;          // repetitions dropped because a rank was preempted
};

// Collective over the group.
// `discard_preempted` false keeps every repetition.
PointResult measure_point(const Kernel& kernel, const Group& group, std::uint64_t bytes, int warmup,
                          const RepetitionLimits& limits, bool discard_preempted, Buffers& buffers);

}  // namespace augur::bench
