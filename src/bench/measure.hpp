#pragma once
// Measuring one point: warm-up, then repetitions in batches until the median is precise enough
// or the point's limits are reached. Every repetition starts with a barrier (it also orders the
// untimed preparation, such as a receive posted for a ready send). With barrier synchronisation
// the timed part starts as each rank leaves the barrier; with window synchronisation every rank
// then waits for an agreed instant on clocks brought to one time base (clock_sync.hpp), so the
// ranks start together instead of with the barrier's exit skew. A repetition's time is the
// largest over the group of the ranks' own times (for a collective, from the start to the last
// finish). Repetitions during which the operating system preempted a rank, or (window) in which
// a rank reached its window late, are discarded.
//
// Back to back: a collective whose call takes less than about 100 µs is run several times in a
// row in each repetition (up to 64, enough to fill 100 µs), and the repetition's time is the
// mean per call. Programs call short collectives in loops, where each call starts as the previous one
// ends on every rank; an isolated call measured from a common start costs up to twice as much
// on shared memory (0.57 µs against 0.25 µs for an 8-byte allreduce on 2 processes here).
#include <cstdint>
#include <string>

#include "bench/buffers.hpp"
#include "bench/group.hpp"
#include "bench/kernel.hpp"
#include "bench/settings.hpp"
#include "bench/statistics.hpp"

namespace augur::bench {

struct PointResult {
  Summary summary;            // on group rank 0
  double ci_halfwidth = 0;    // relative, of the median
  int discarded = 0;          // repetitions dropped (preempted, or late for their window)
  double skew = 0;            // median spread of the ranks' start times, seconds
  double clock_error = 0;     // uncertainty of the clock offsets behind `skew`, seconds
  // Medians by role: group rank 0's own time and the slowest other rank's (rooted operations).
  double root = 0, others = 0;
  bool mostly_disturbed = false;  // too few undisturbed repetitions: the summary uses disturbed ones
  int calls = 1;                  // calls per repetition (a back-to-back sequence), on every rank
  // The slower of the state probes just before and just after the point, seconds, on world
  // rank 0 (state_probe.hpp); 0 when the run has one rank.
  double state_probe = 0;
  // Seconds of one compute step just after the point, on world rank 0 (compute_probe.hpp).
  double compute_probe = 0;
  // Not empty: the MPI library failed the kernel on some rank, and this is its error text
  // (kernel_errors.hpp); nothing else is set.
  std::string not_measurable;
};

struct MeasureSettings {
  int warmup = 0;
  RepetitionLimits limits;
  bool discard_preempted = true;
  Sync sync = Sync::barrier;
  bool back_to_back = true;
};

// Collective over the group. An MPI error on any rank ends the point on all of them, with
// `not_measurable` set.
PointResult measure_point(const Kernel& kernel, const Group& group, std::uint64_t bytes,
                          const MeasureSettings& settings, Buffers& buffers);

// Whether the MPI library runs the kernel at all: its setup, one untimed repetition and its
// teardown. Returns the library's error text when it failed on some rank, else an empty
// string. Collective over the group.
std::string try_point(const Kernel& kernel, const Group& group, std::uint64_t bytes, Buffers& buffers);

}  // namespace augur::bench
