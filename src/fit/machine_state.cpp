#include "fit/machine_state.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "fit/median.hpp"
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
// Below this share of measurements in another state, a model is taken to describe the one state
// the machine was in.
constexpr double kNotableOtherStateShare = 0.05;

double number_or_zero(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
}

StateChoice fitted_state_choice(const nlohmann::json& settings) {
  const auto fit = settings.find("fit");
  if (fit == settings.end() || !fit->is_object()) return StateChoice::reference;
  const auto state = fit->find("state");
  if (state == fit->end() || !state->is_string()) return StateChoice::reference;
  return state_choice_from_string(state->get<std::string>()).value_or(StateChoice::reference);
}

}  // namespace

nlohmann::json MachineStates::to_json() const {
  nlohmann::json j = {{"probed", probed}, {"reference_probe", reference}, {"limit", limit},
                      {"elsewhere", elsewhere}};
  if (elsewhere > 0) j["elsewhere_probe"] = elsewhere_probe;
  if (reference > 0) j["scaling_probe"] = reference;
  return j;
}

std::optional<MachineStates> MachineStates::from_json(const nlohmann::json& j) {
  if (!j.is_object()) return std::nullopt;
  const double probed = number_or_zero(j, "probed");
  const double elsewhere = number_or_zero(j, "elsewhere");
  // Counts beyond int are no record augur fit wrote, and converting them would be undefined.
  if (!(probed >= 0 && probed <= std::numeric_limits<int>::max()) || !(elsewhere >= 0 && elsewhere <= probed))
    return std::nullopt;
  MachineStates states;
  states.probed = static_cast<int>(probed);
  states.elsewhere = static_cast<int>(elsewhere);
  states.reference = number_or_zero(j, "reference_probe");
  states.limit = number_or_zero(j, "limit");
  states.elsewhere_probe = number_or_zero(j, "elsewhere_probe");
  return states;
}

std::optional<std::string> MachineStates::prediction_note(StateChoice choice) const {
  if (!(probed > 0) || !(elsewhere > 0) || !(reference > 0) || !(elsewhere_probe > reference)) return std::nullopt;
  const double share = static_cast<double>(elsewhere) / probed;
  if (share < kNotableOtherStateShare) return std::nullopt;
  const auto seen = fmt::format(
      "While this model was measured, {:.0f}% of the measurements found the machine in a slower state: "
      "an 8-byte ping-pong took {} instead of {} ({:.1f} times as long).",
      100 * share, model::format_seconds(elsewhere_probe), model::format_seconds(reference), elsewhere_probe / reference);
  if (choice == StateChoice::typical) return seen + " The model pools both states, so its times lie between the two.";
  return seen + " The model describes the faster state; a run made while the machine is in the slower one "
                "spends longer in MPI than these times.";
}

std::optional<std::string> prediction_note(const nlohmann::json& settings) {
  if (!settings.is_object()) return std::nullopt;
  const auto record = settings.find("machine_states");
  if (record == settings.end()) return std::nullopt;
  const auto states = MachineStates::from_json(*record);
  return states ? states->prediction_note(fitted_state_choice(settings)) : std::nullopt;
}

std::string MachineStates::summary(StateChoice choice) const {
  if (elsewhere == 0) return {};
  const auto seen = fmt::format("{} of {} measurements were taken while the machine's 8-byte ping-pong took {} instead of {}",
                                elsewhere, probed, model::format_seconds(elsewhere_probe),
                                model::format_seconds(reference));
  if (choice == StateChoice::reference)
    return seen + "; short messages are scaled to the faster state's probe, other points pooled from the faster half of their passes (--state typical pools them all)";
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
  const auto at = [&](double q) { return probes[static_cast<std::size_t>(q * static_cast<double>(probes.size() - 1))]; };
  states.reference = at(kFasterStateQuantile);
  states.limit = kOtherStateRatio * states.reference;
  const auto first_elsewhere = std::upper_bound(probes.begin(), probes.end(), states.limit);
  states.elsewhere = static_cast<int>(probes.end() - first_elsewhere);
  if (states.elsewhere > 0) states.elsewhere_probe = median(std::vector<double>(first_elsewhere, probes.end()));
  return states;
}

}  // namespace augur::fit
