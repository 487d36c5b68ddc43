#pragma once
// `augur diff` for reading: a table of both machines' times and their ratio at the chosen
// points, the crossovers, as text or JSON, and pictures of the ratio over message size.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "calc/machine_diff.hpp"
#include "model/model.hpp"
#include "report/gnuplot.hpp"

namespace augur::report {

std::string format_diff(const calc::MachineDiff& diff);
nlohmann::json diff_to_json(const calc::MachineDiff& diff);

// One picture per compared group size: t_B / t_A over message size, a line per operation.
std::vector<Plot> diff_plots(const model::Model& a, const model::Model& b, const calc::MachineDiff& diff);

}  // namespace augur::report
