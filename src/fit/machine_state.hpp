#pragma once
// Which measurements were taken in the machine's reference state, and which elsewhere: the
// record a fit writes into the model (model/machine_states.hpp says why a machine has states),
// and the sentence `augur fit` and `augur bench` print of it.
#include <string>
#include <vector>

#include "fit/raw.hpp"
#include "model/machine_states.hpp"

namespace augur::fit {

// The reference is the fastest state that recurs among the points' probes.
model::MachineStates machine_states(const std::vector<Measurement>& points);

// One sentence for the terminal when some measurements were in another state; empty otherwise.
std::string states_summary(const model::MachineStates& states, model::StateChoice choice);

}  // namespace augur::fit
