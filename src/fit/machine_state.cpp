#include "fit/machine_state.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

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
// Within the reference state the machine still moved: an 8-byte allreduce took 0.19–0.21 µs
// while the probe read 0.14–0.16 µs and 0.27–0.31 µs while it read 0.18–0.23 µs. A point with
// enough measurements this close to the reference probe is pooled from those alone.
constexpr double kCloseRatio = 1.2;
constexpr std::size_t kEnoughCloseMeasurements = 3;

}  // namespace

std::string_view to_string(StateChoice c) { return c == StateChoice::reference ? "reference" : "typical"; }

std::optional<StateChoice> state_choice_from_string(std::string_view s) {
  if (s == "typical") return StateChoice::typical;
  if (s == "reference") return StateChoice::reference;
  return std::nullopt;
}

bool MachineStates::within(const Measurement& m, double ratio) const {
  return limit <= 0 || !m.state_probe || *m.state_probe <= ratio * reference;
}

std::vector<const Measurement*> MachineStates::nearest_reference(const std::vector<const Measurement*>& group) const {
  auto those_within = [&](double ratio) {
    std::vector<const Measurement*> chosen;
    for (const auto* m : group)
      if (within(*m, ratio)) chosen.push_back(m);
    return chosen;
  };
  if (auto close = those_within(kCloseRatio); close.size() >= kEnoughCloseMeasurements) return close;
  if (auto in_state = those_within(kOtherStateRatio); !in_state.empty()) return in_state;
  return group;
}

nlohmann::json MachineStates::to_json() const {
  nlohmann::json j = {{"probed", probed}, {"reference_probe", reference}, {"limit", limit},
                      {"elsewhere", elsewhere}};
  if (elsewhere > 0) j["elsewhere_probe"] = elsewhere_probe;
  return j;
}

MachineStates MachineStates::from_json(const nlohmann::json& j) {
  try {
    MachineStates s;
    s.probed = j.at("probed").get<int>();
    s.reference = j.at("reference_probe").get<double>();
    s.limit = j.at("limit").get<double>();
    s.elsewhere = j.at("elsewhere").get<int>();
    s.elsewhere_probe = j.value("elsewhere_probe", 0.0);
    return s;
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("machine_states: ") + e.what());
  }
}

std::string MachineStates::summary(StateChoice choice) const {
  if (elsewhere == 0) return {};
  const auto seen = fmt::format("{} of {} measurements were taken while the machine's 8-byte ping-pong took {:.3g} µs instead of {:.3g} µs",
                                elsewhere, probed, elsewhere_probe * 1e6, reference * 1e6);
  if (choice == StateChoice::reference)
    return seen + "; each point is pooled from its measurements nearest the faster state where it has any";
  return seen + "; the model pools both states, as programs meet them (--state reference fits the faster one alone)";
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
