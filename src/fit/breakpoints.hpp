#pragma once
// Automatic regime boundaries along the message-size axis.
//
// Protocol switches (eager to rendezvous) and packet steps show as a jump in latency and a
// change of slope at some size. Within a segment of consecutive measured sizes each group size
// is modelled by its own straight line in d; the segment's cost is the weighted χ² of those
// lines. Lines per group size do not presume how time grows with p, so a misfit in p cannot be
// mistaken for a change along d, and their χ² comes from running sums in O(1) per segment.
// Dynamic programming finds, for each number of segments, the split with the least total χ²;
// the number of segments is then chosen by the Bayesian information criterion on the weighted
// residual sum, N·ln(χ²/(N − k)) + k·ln N. It depends on the ratio of residuals, not on the
// error estimates being right, and keeps one segment for a single law plus noise. When its
// choice leaves the points further off than the residual goal and more segments would not, the
// fewest that meet the goal are taken; when it leaves one size far off (beyond the worst-point
// goal and far beyond noise), the fewest further segments that bring every size within it. No
// search is made when one segment already fits within the error estimates (docs/fitting.md,
// "Breakpoints").
#include <vector>

#include "fit/samples.hpp"

namespace augur::fit {

struct BreakpointOptions {
  // Small sizes on a shared-memory machine climb in several steps (0.3 to 1.5 µs between 0 B and
  // 4 KiB, in three or four), and large ones change law again at the caches' sizes.
  int max_segments = 6;
  // Fewer sizes than this cannot show a line and its scatter, so no segment is that short.
  int min_sizes_per_segment = 3;
  // Parameters charged for each breakpoint's position on top of the segment's lines; the
  // position is chosen as the best of many, which one parameter would under-charge.
  double parameters_per_breakpoint = 2;
  // One segment is kept without a search when its lines already fit within the error estimates:
  // goodness of fit Q at least this (a jump would leave residuals far beyond the errors).
  double fits_within_errors = 1e-3;
  // The data sheet's promise: an operation's law within this of its measured points (median of
  // |relative residual|). When the criterion's choice leaves more, the fewest segments whose
  // lines meet it are taken instead, if any number up to max_segments does (0: criterion only).
  double residual_goal = 0.05;
  // No single measured size should be further off than this (relative) when it is also far
  // beyond its error estimate: a median goal alone lets a law miss the last sizes, where a
  // curve leaves the cache, by 40% (0: no such check).
  double worst_point_goal = 0.2;
};

// The sizes (bytes) at which a new segment starts, ascending: each is the first measured size
// of its segment. Empty when one segment is best or the sizes do not vary.
std::vector<double> detect_breakpoints(const std::vector<Sample>& samples, const BreakpointOptions& options);

}  // namespace augur::fit
