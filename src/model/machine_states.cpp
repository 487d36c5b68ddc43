#include "model/machine_states.hpp"

#include <limits>

#include <fmt/format.h>

#include "model/units.hpp"

namespace augur::model {
namespace {

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
      100 * share, format_seconds(elsewhere_probe), format_seconds(reference), elsewhere_probe / reference);
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

}  // namespace augur::model
