#pragma once
// `augur plot` for reading: an application model's evaluation as a CSV table, a summary with the
// best process count per machine, and pictures of time, speedup and phases over p.
#include <ostream>
#include <string>
#include <vector>

#include "app/evaluate.hpp"
#include "report/gnuplot.hpp"

namespace augur::report {

// machine, the other parameters, p, every phase (µs), total_us, speedup.
void write_app_csv(const app::Evaluation& evaluation, std::ostream& out);

std::string format_app_summary(const std::string& name, const app::Evaluation& evaluation);

// NAME-time, NAME-speedup, and NAME-phases-MACHINE for each machine (at its last combination of
// the other parameters, the largest problem when sizes increase).
std::vector<Plot> app_plots(const std::string& name, const app::Evaluation& evaluation);

}  // namespace augur::report
