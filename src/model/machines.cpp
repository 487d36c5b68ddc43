#include "model/machines.hpp"

#include <filesystem>
#include <utility>

#include "model/model_json.hpp"

namespace augur::model {

// Defined in the source generated from machines/*.json (cmake/EmbedMachines.cmake).
const std::vector<std::pair<std::string_view, std::string_view>>& builtin_machine_texts();

std::vector<std::string> builtin_machine_names() {
  std::vector<std::string> names;
  for (const auto& [name, _] : builtin_machine_texts()) names.emplace_back(name);
  return names;
}

Model load_machine(std::string_view name_or_path) {
  for (const auto& [name, text] : builtin_machine_texts())
    if (name == name_or_path) return parse_model(text, "<builtin:" + std::string(name) + ">");
  std::filesystem::path path(name_or_path);
  if (std::filesystem::exists(path)) return load_model_file(path);
  std::string known;
  for (const auto& n : builtin_machine_names()) known += (known.empty() ? "" : ", ") + n;
  throw ModelError(std::string(name_or_path), "",
                   "neither a built-in machine (" + known + ") nor an existing model file");
}

}  // namespace augur::model
