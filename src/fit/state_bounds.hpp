#pragma once
// The min and max of a fitted regime from the machine's states (docs/model-format.md, "Bounds").
//
// This 2-vCPU guest jumps between a fast and a slow state within minutes (model/machine_states.hpp): a
// communication-bound program runs a third longer in the slow one. The law is fitted to each
// point's pooled passes, by default the fast state's (fit/pooling.hpp), so it is the fast state's
// time; a band drawn from those passes' repetitions held only about half of the runs measured
// later. Every pass the
// bench made is kept in the raw file, each with the state it was made in: divided by the law at
// its point, a pass says where its state lies relative to the law, and the regime records where
// the fast and the slow state lie, so that min is the one's time and max the other's.
#include <utility>
#include <vector>

#include "fit/raw.hpp"
#include "model/model.hpp"

namespace augur::fit {

// One operation's passes as the bench measured them, before pooling, and the probe above which
// a pass was made in a slower state (MachineStates::limit; 0 when the probes cannot tell).
struct MeasuredPasses {
  std::vector<Measurement> passes;
  double state_limit = 0;
};

// The q-quantile of `values`, interpolated linearly between the order statistics; 0 when empty.
double quantile(std::vector<double> values, double q);

// A band [min, max] is meant to hold nine runs in ten, so its ends are the 5th and 95th
// percentile of what the bench saw: of a point's fast-state and slow-state passes, and of the
// compute probes (compute_states.hpp). The medians of each state's passes would make min the law
// itself (the law is fitted to the fast state's passes, so their median lies at or above it) and
// max the slow state's middle, leaving outside every run faster than its prediction and half of
// the runs made in the slow state.
inline constexpr std::pair<double, double> kBandQuantiles{0.05, 0.95};

// The regime's states from the passes inside its sizes, each divided by the law at its point
// (its `statistic`; passes where the law is not positive are skipped). Per point: the
// kBandQuantiles' low end of the fast state's passes and high end of the slow state's when the
// point has passes in both (a pass is in the slow state when its probe is above the limit);
// otherwise, as without probes, both ends of all its passes, which on a machine that spent some
// time in each state reach into both and on a machine with one state lie close together. The regime's
// fast and slow are the medians over its points, so that neither one size's trouble nor one
// size's luck sets the band of all (this guest's 64 KiB ping-pong took milliseconds in most
// passes of a busy run, where 4–32 KiB took 1.2–1.6 times the law); fast at most 1 and slow at
// least 1. 1 and 1 when no pass is inside the regime.
model::StateFactors state_factors(const MeasuredPasses& measured, const model::Regime& regime,
                                  model::Statistic statistic, const model::Units& units);

}  // namespace augur::fit
