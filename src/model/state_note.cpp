#include "model/state_note.hpp"

#include <fmt/format.h>

namespace augur::model {
namespace {

double number_or_zero(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
}

bool pools_every_pass(const nlohmann::json& settings) {
  const auto fit = settings.find("fit");
  if (fit == settings.end() || !fit->is_object()) return false;
  const auto state = fit->find("state");
  return state != fit->end() && state->is_string() && state->get<std::string>() == "typical";
}

}  // namespace

std::optional<std::string> machine_state_note(const nlohmann::json& settings) {
  if (!settings.is_object()) return std::nullopt;
  const auto record = settings.find("machine_states");
  if (record == settings.end() || !record->is_object()) return std::nullopt;
  const double probed = number_or_zero(*record, "probed");
  const double elsewhere = number_or_zero(*record, "elsewhere");
  const double reference = number_or_zero(*record, "reference_probe");
  const double other = number_or_zero(*record, "elsewhere_probe");
  if (!(probed > 0) || !(elsewhere > 0) || elsewhere > probed || !(reference > 0) || !(other > reference))
    return std::nullopt;
  const double share = elsewhere / probed;
  if (share < kNotableOtherStateShare) return std::nullopt;
  const auto seen = fmt::format(
      "While this model was measured, {:.0f}% of the measurements found the machine in a slower state: "
      "an 8-byte ping-pong took {:.3g} µs instead of {:.3g} µs ({:.1f} times as long).",
      100 * share, other * 1e6, reference * 1e6, other / reference);
  if (pools_every_pass(settings))
    return seen + " The model pools both states, so its times lie between the two.";
  return seen + " The model describes the faster state; a run made while the machine is in the slower one "
                "spends longer in MPI than these times.";
}

}  // namespace augur::model
