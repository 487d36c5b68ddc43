#pragma once
// Where a fitted model comes from: the machine and provenance recorded in the raw header
// (docs/raw-format.md), so a model file always says what was measured, where and how.
#include <string>

#include <nlohmann/json.hpp>

#include "model/model.hpp"

namespace augur::fit {

struct Origin {
  model::Machine machine;
  model::Provenance provenance;
};

// Machine name "fitted" when the header has none; provenance.source = `fallback_source` (the
// raw files) when the header names no source; the header's `settings` become the provenance
// settings unless the provenance has its own. Throws std::invalid_argument "FIELD: REASON" for
// a field of the wrong type.
Origin origin_from_header(const nlohmann::json& header, const std::string& fallback_source);

}  // namespace augur::fit
