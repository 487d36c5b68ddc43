#pragma once
// Built-in machines (machines/*.json, compiled into the library) and lookup by name or path.
#include <string>
#include <string_view>
#include <vector>

#include "model/model.hpp"

namespace augur::model {

std::vector<std::string> builtin_machine_names();
// A built-in name ("t3d") or a path to a model file. Throws ModelError if neither.
Model load_machine(std::string_view name_or_path);

}  // namespace augur::model
