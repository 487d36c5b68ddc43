#pragma once
// Points measured more than once (in several passes of one run, or in several runs' raw files)
// pooled into one point each before fitting.
//
// A machine that is shared or virtualised drifts between fast and slow spells that last longer
// than one point takes to measure, so a point measured once carries the spell it fell in. The
// median of several passes spread over the run is robust to a spell that hit one of them, and
// the spread between passes, not the spread within one, is the honest error of the result.
#include <vector>

#include "fit/raw.hpp"
#include "model/machine_states.hpp"

namespace augur::fit {

// One point per (operation, p, bytes), in the order of first appearance. Of a point's
// measurements, all of them, or with StateChoice::reference: when its time is a few state probes
// (latency-bound), every pass scaled to MachineStates::reference, the faster state's probe;
// otherwise the faster half of its passes in the reference state (probe at most
// MachineStates::limit) or the faster half of all its passes, whichever pools the faster.
// Of the k so chosen:
// the median of the medians (and of the role medians, skews, clock errors and state probes),
// the least minimum, the greatest maximum, the mean weighted by repetitions, the repetitions
// summed, and a standard deviation such that std/√reps is the larger of the passes' own
// standard error over √k and the spread of their medians over √k.
// `states` are machine_states of the same points (default ones: scale and select nothing); the
// caller that already has them passes them, the shorter form finds them.
std::vector<Measurement> pool_repeated_points(const std::vector<Measurement>& points, model::StateChoice choice,
                                              const model::MachineStates& states);
std::vector<Measurement> pool_repeated_points(const std::vector<Measurement>& points, model::StateChoice choice);

}  // namespace augur::fit
