#pragma once
// Which measurements were taken in the machine's reference state, and which a fit pools.
//
// A virtual machine's processors can be placed close together or far apart by the host, and an
// 8-byte ping-pong between them took 0.12–0.18 µs in one state and 0.34–0.50 µs in the other,
// switching every 5–35 s. Two runs of a minute see the two states in different shares, and a
// point pooled over passes from both lands in either, so neither the model nor its residuals
// repeat. The bench probes the state around every point (bench/state_probe.hpp), and a fit can
// pool each point over its passes in the fastest state that recurs (the reference) or over all
// of them (the machine as a program finds it). On a machine with one state every probe is in the
// reference and the two agree.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "fit/raw.hpp"

namespace augur::fit {

// What a fit pools of a point's passes. typical: all of them, so the model predicts programs that
// run while the machine jumps between states, as they do. reference: those nearest the fastest
// recurring state, so the model is that state's, repeatable from run to run and closer to its
// own points, but short of what programs take whenever the machine is in another state.
enum class StateChoice { typical, reference };
std::string_view to_string(StateChoice);
std::optional<StateChoice> state_choice_from_string(std::string_view);

struct MachineStates {
  int probed = 0;              // measurements that carry a state probe
  double reference = 0;        // the reference state's probe, seconds: the 10th percentile
  double limit = 0;            // probes above this are another state (0: no selection)
  int elsewhere = 0;           // probed measurements above the limit
  double elsewhere_probe = 0;  // their probes' median, seconds

  // Of one point's measurements, those to pool: the ones closest to the reference probe when
  // there are at least three, else those in the reference state, else all.
  std::vector<const Measurement*> nearest_reference(const std::vector<const Measurement*>& group) const;
  nlohmann::json to_json() const;
  // What to_json wrote; throws std::invalid_argument naming the field that is missing or wrong.
  static MachineStates from_json(const nlohmann::json& j);
  // One sentence for the terminal when some measurements were in another state; empty otherwise.
  std::string summary(StateChoice choice) const;

 private:
  bool within(const Measurement& m, double ratio) const;  // probe ≤ ratio × reference, or none
};

MachineStates machine_states(const std::vector<Measurement>& points);

}  // namespace augur::fit
