#pragma once
// What a model says about the machine state it describes, for the people reading its answers.
//
// `augur bench` probes the machine's state around every point, and `augur fit` records in the
// model how many measurements found the machine in a slower state than its reference one
// (provenance.settings.machine_states; docs/fitting.md, "Machine states"). A virtual machine
// whose host moves its processors apart for minutes at a time runs a communication-bound program
// a third longer in that state; a prediction that does not say which state it is for invites the
// user to read the machine's drift as the predictor's error.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace augur::model {

// Below this share of measurements in another state, the model is taken to describe the one
// state the machine was in.
inline constexpr double kNotableOtherStateShare = 0.05;

// A sentence or two for a model whose machine spent at least kNotableOtherStateShare of its
// measurements in another state; nothing when it did not, when the model has no such record
// (hand-written or seed models), or when the record is not what `augur fit` writes.
// `settings` is the model's provenance.settings.
std::optional<std::string> machine_state_note(const nlohmann::json& settings);

}  // namespace augur::model
