#include "model/state_choice.hpp"

namespace augur::model {

std::string_view to_string(StateChoice c) { return c == StateChoice::reference ? "reference" : "typical"; }

std::optional<StateChoice> state_choice_from_string(std::string_view s) {
  if (s == "typical") return StateChoice::typical;
  if (s == "reference") return StateChoice::reference;
  return std::nullopt;
}

}  // namespace augur::model
