#pragma once
// Where a fitted model comes from: the machine and provenance recorded in the raw header
// (docs/raw-format.md), so a model file always says what was measured, where and how.
#include <string>

#include <nlohmann/json.hpp>

#include "fit/raw.hpp"
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

// The operations the MPI library could not run, as the model's provenance notes them
// (settings.not_measurable, docs/model-format.md): for each, the library's error text and the
// first point it failed at. Null when there are none.
nlohmann::json unmeasurable_note(const std::vector<Unmeasurable>& records);

// "the MPI library could not run MPI_Put, MPI_Win_fence (MPI_ERR_WIN: invalid window)", from a
// model's provenance; empty when it notes none.
std::string unmeasurable_summary(const model::Provenance& provenance);

}  // namespace augur::fit
