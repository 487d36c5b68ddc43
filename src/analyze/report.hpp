#pragma once
// `augur analyze`'s report: text for reading (units from model/units.hpp) and JSON with the
// exact values in seconds.
#include <string>

#include <nlohmann/json.hpp>

#include "analyze/analysis.hpp"
#include "analyze/anomalies.hpp"
#include "analyze/whatif.hpp"

namespace augur::analyze {

nlohmann::json to_json(const Analysis& a, const trace::Trace& trace);
nlohmann::json to_json(const WhatIf& w);
nlohmann::json to_json(const Sweep& s);

// `top`: how many of the path's longest segments to list.
std::string format_analysis(const Analysis& a, const trace::Trace& trace, std::size_t top = 5);
std::string format_what_if(const WhatIf& w);
std::string format_sweep(const Sweep& s);

}  // namespace augur::analyze
