#pragma once
// Machine files (docs/machine-format.md): JSON beside the model file, read into a Machine.
// Every error is a model::ModelError naming the file, the field and the reason.
#include <filesystem>
#include <string>
#include <string_view>

#include "sim/network/machine.hpp"

namespace augur::sim {

// `source` names the text in errors; `directory` is where a mapping file is looked for.
Machine parse_machine(std::string_view text, const std::string& source, const std::filesystem::path& directory = {});
Machine load_machine(const std::filesystem::path& path);

// A machine from the command line's --topology: a machine file's path (JSON, or Parasol's
// format for a .parasol file), or NAME:params.
Machine machine_from_argument(std::string_view argument);

}  // namespace augur::sim
