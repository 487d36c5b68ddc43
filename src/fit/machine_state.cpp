#include "fit/machine_state.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "util/median.hpp"
#include "model/units.hpp"

namespace augur::fit {
namespace {

// Fewer probes than this say little about which states recur.
constexpr int kFewestProbes = 10;
// A probe beyond this ratio of the reference is another state: the reference state's own probes
// spread to about 1.45 times its 10th percentile and 1.55 times its 5th, and the other state
// begins at about 2.7 times (docs/machine-states.md).
constexpr double kOtherStateRatio = 1.75;
// The faster state's probe, both the reference that kOtherStateRatio is taken of and the probe
// latency-bound points are scaled to. The 5th percentile, not the 10th: a short bench meets the
// faster spell less, which moves its 10th percentile further than its 5th; and a bench that meets
// the faster state in fewer than a tenth of its probes has its 10th percentile in the slower
// state, so that every measurement would count as the reference and its bandwidth-bound points
// would be pooled from the slower state's passes while its short messages were scaled to the
// faster state: a model of neither (docs/machine-states.md, "Why the 5th percentile").
constexpr double kFasterStateQuantile = 0.05;

}  // namespace

std::string states_summary(const model::MachineStates& states, model::StateChoice choice) {
  if (states.elsewhere == 0) return {};
  const auto seen = fmt::format("{} of {} measurements were taken while the machine's 8-byte ping-pong took {} instead of {}",
                                states.elsewhere, states.probed, model::format_seconds(states.elsewhere_probe),
                                model::format_seconds(states.reference));
  if (choice == model::StateChoice::reference)
    return seen + "; short messages are scaled to the faster state's probe, other points pooled from the faster half of their passes (--state typical pools them all)";
  return seen + "; the model pools every pass, in both states";
}

model::MachineStates machine_states(const std::vector<Measurement>& points) {
  std::vector<double> probes;
  for (const auto& m : points)
    if (m.state_probe) probes.push_back(*m.state_probe);
  model::MachineStates states;
  states.probed = static_cast<int>(probes.size());
  if (states.probed < kFewestProbes) return states;
  std::sort(probes.begin(), probes.end());
  const auto at = [&](double q) { return probes[static_cast<std::size_t>(q * static_cast<double>(probes.size() - 1))]; };
  states.reference = at(kFasterStateQuantile);
  states.limit = kOtherStateRatio * states.reference;
  const auto first_elsewhere = std::upper_bound(probes.begin(), probes.end(), states.limit);
  states.elsewhere = static_cast<int>(probes.end() - first_elsewhere);
  if (states.elsewhere > 0) states.elsewhere_probe = util::median(std::vector<double>(first_elsewhere, probes.end()));
  return states;
}

}  // namespace augur::fit
