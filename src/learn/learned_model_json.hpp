#pragma once
// A learned program as an application model's JSON (docs/app-model-format.md): the program
// section (app/app_program_json.hpp) with the phases augur plot reads (learn/app_phases.hpp),
// the range of p it may be asked at and the problem sizes it was learned at.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "learn/learner.hpp"

namespace augur::learn {

// `program`: the traced command, for the description; `parameter` the problem size's name
// (empty when there is none) and `values` its value at each trace.
nlohmann::ordered_json learned_model_json(const Learned& learned, const std::string& name, const std::string& program,
                                          const std::string& parameter, const std::vector<double>& values);

}  // namespace augur::learn
