#pragma once
// Which of a point's passes a fit pools: the choice between the machine as programs meet it and
// the machine at its best recurring state (model/machine_states.hpp tells why there are two).
#include <optional>
#include <string_view>

namespace augur::model {

// What a fit pools of a point's passes. typical: all of them, so the model follows the share of
// its time the machine spent in each state. reference (the default): each latency-bound
// point's passes scaled to the faster state's probe, any other point's faster half of its passes
// in that state (fit/pooling.hpp), so the model is the machine's faster recurring state, repeatable
// from run to run and closer to its own points, but short of what programs take whenever the
// machine is in a slower state.
enum class StateChoice { typical, reference };
std::string_view to_string(StateChoice);
std::optional<StateChoice> state_choice_from_string(std::string_view);

}  // namespace augur::model
