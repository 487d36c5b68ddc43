#pragma once
// The compute section's states (docs/model-format.md, "The compute section"): how the machine's
// compute speed varied over the bench.
//
// On this 2-vCPU guest a compute-bound program's measured runs scatter by 5–10% around their
// median, as the host moves and shares the processors, while its compute measured once under
// the reverse profiler is one draw of that scatter: a band from the messages alone, 0–0.6% wide
// for such a program, held none of its runs. The bench times a fixed number of compute steps
// after every point (Measurement::compute_probe), so the probes sample the machine's compute
// speed over the whole run, as the state probes sample its messages.
#include <optional>
#include <vector>

#include "fit/raw.hpp"
#include "model/regime.hpp"

namespace augur::fit {

// Fewer probes than this say nothing of a spread: the compute then gets no states.
inline constexpr int kMinComputeProbes = 8;

// The compute's states are the kBandQuantiles (state_bounds.hpp) of the ratios of one probe
// to another, over every ordered pair of probes, all passes together: what a run of the program
// takes over what its prediction measured, when each is a draw of the machine's compute speed.
// Relative to the probes' median instead, the band would assume the prediction had measured a
// typical speed, and a prediction whose compute was measured a few percent slow would put many
// of its program's runs below min. For a machine that computes at two speeds the ratios reach
// from one speed over the other to its inverse. On a steady machine both lie close to 1; a rare
// interrupted probe moves neither. The state probes are not used to split the compute probes:
// they time messages, and a machine state that slows messages need not slow arithmetic. Nothing
// when fewer than kMinComputeProbes records carry a probe (raw files from before the probe).
std::optional<model::StateFactors> compute_states(const std::vector<Measurement>& passes);

}  // namespace augur::fit
