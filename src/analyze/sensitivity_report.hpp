#pragma once
// A sensitivity sweep for people (a table per parameter), for programs (JSON with every point,
// exact) and as plots of the run time against each parameter's factor with its tolerances marked.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyze/sensitivity.hpp"
#include "report/gnuplot.hpp"

namespace augur::analyze {

std::string format_sensitivity(const Sensitivity& s, const std::string& title);
nlohmann::json to_json(const Sensitivity& s);
// One plot per parameter (T against its factor, the tolerances as dashed lines, the run as it
// is as a level line) and one of every parameter's T/T0 together, named with `stem`.
std::vector<report::Plot> sensitivity_plots(const Sensitivity& s, const std::string& stem, const std::string& title);

}  // namespace augur::analyze
