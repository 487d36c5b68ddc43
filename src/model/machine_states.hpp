#pragma once
// Which state the machine was in while a model was measured, as the model records it.
//
// A virtual machine's processors can be placed close together or far apart by the host, and an
// 8-byte ping-pong between them took 0.12–0.18 µs in one state and 0.34–0.50 µs in the other,
// switching every 5–35 s. Two runs of a minute see the two states in different shares, and a
// point pooled over passes from both lands in either, so neither the model nor its residuals
// repeat. The bench probes the state around every point (bench/state_probe.hpp); a fit counts
// the measurements taken elsewhere than the fastest state that recurs (the reference,
// fit/machine_state.hpp), records them in the model's provenance.settings under machine_states,
// and the readers of the model's predictions (augur run, augur calc) say which state it describes.
// On a machine with one state every probe is in the reference.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "model/state_choice.hpp"

namespace augur::model {

struct MachineStates {
  int probed = 0;              // measurements that carry a state probe
  // The reference state's probe, seconds: the 5th percentile, the faster state however few
  // passes met it, and the probe latency-bound points are scaled to (fit/pooling.hpp); 0: too few
  // probes to tell.
  double reference = 0;
  double limit = 0;            // probes above this are another state (0: too few probes to tell)
  int elsewhere = 0;           // probed measurements above the limit
  double elsewhere_probe = 0;  // their probes' median, seconds

  // Also writes `scaling_probe`, the reference under the name model files have carried since the
  // scaling probe and the reference were two percentiles; from_json reads reference_probe alone.
  nlohmann::json to_json() const;
  // The record to_json wrote, or nothing when `j` is not such a record (a hand-written model's
  // free-form settings may hold anything).
  static std::optional<MachineStates> from_json(const nlohmann::json& j);
  // For the readers of a model's predictions (augur run, augur calc): which state its times
  // describe, when at least 5% of the measurements were in a slower one; nothing otherwise. On a
  // guest whose host moves its processors apart for minutes at a time, a communication-bound
  // program runs a third longer in that state, and a prediction that does not say which state it
  // is for invites the user to read the machine's drift as the predictor's error.
  std::optional<std::string> prediction_note(StateChoice choice) const;
};

// MachineStates::prediction_note of a model, from its provenance.settings: the record under
// machine_states and the state choice under fit.state (reference when absent). Nothing for a
// model without the record, such as a hand-written or seed one.
std::optional<std::string> prediction_note(const nlohmann::json& settings);

}  // namespace augur::model
