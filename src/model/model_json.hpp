#pragma once
// Reading and writing model files (JSON, format version kModelFormatVersion). Loading validates
// everything and throws ModelError naming the file, the JSON path and the reason.
#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "model/model.hpp"

namespace augur::model {

// `source` names the text in error messages (a path, or "<builtin:t3d>").
Model parse_model(std::string_view text, const std::string& source);
Model load_model_file(const std::filesystem::path& path);

nlohmann::json to_json(const Model& model);

// The compute section alone, for the raw file's header, which carries it in the same shape.
// `path` is the JSON path of `value` in its document, for error messages.
Compute parse_compute(const nlohmann::json& value, const std::string& source, const std::string& path = "compute");
nlohmann::json to_json(const Compute& compute);
// Writes atomically (temporary file, then rename) so an interrupted write leaves no half file.
void save_model_file(const Model& model, const std::filesystem::path& path);

}  // namespace augur::model
