#include "fit/machine_state.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "fit/median.hpp"

namespace augur::fit {
namespace {

// Fewer probes than this say little about which states recur.
constexpr int kFewestProbes = 10;
// The reference state's own probes spread to about 1.45 times its 10th percentile (0.12–0.18 µs
// above); the other state began at 2.7 times. A probe beyond this ratio is another state.
constexpr double kOtherStateRatio = 1.75;
constexpr double kReferenceQuantile = 0.10;

}  // namespace

nlohmann::json MachineStates::to_json() const {
  nlohmann::json j = {{"probed", probed}, {"reference_probe", reference}, {"limit", limit},
                      {"elsewhere", elsewhere}};
  if (elsewhere > 0) j["elsewhere_probe"] = elsewhere_probe;
  return j;
}

std::string MachineStates::summary(StateChoice choice) const {
  if (elsewhere == 0) return {};
  const auto seen = fmt::format("{} of {} measurements were taken while the machine's 8-byte ping-pong took {:.3g} µs instead of {:.3g} µs",
                                elsewhere, probed, elsewhere_probe * 1e6, reference * 1e6);
  if (choice == StateChoice::reference)
    return seen + "; each point is pooled from its fastest passes (--state typical pools them all)";
  return seen + "; the model pools every pass, in both states";
}

MachineStates machine_states(const std::vector<Measurement>& points) {
  std::vector<double> probes;
  for (const auto& m : points)
    if (m.state_probe) probes.push_back(*m.state_probe);
  MachineStates states;
  states.probed = static_cast<int>(probes.size());
  if (states.probed < kFewestProbes) return states;
  std::sort(probes.begin(), probes.end());
  states.reference = probes[static_cast<std::size_t>(kReferenceQuantile * (probes.size() - 1))];
  states.limit = kOtherStateRatio * states.reference;
  const auto first_elsewhere = std::upper_bound(probes.begin(), probes.end(), states.limit);
  states.elsewhere = static_cast<int>(probes.end() - first_elsewhere);
  if (states.elsewhere > 0) states.elsewhere_probe = median(std::vector<double>(first_elsewhere, probes.end()));
  return states;
}

}  // namespace augur::fit
