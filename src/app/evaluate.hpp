#pragma once
// An application model evaluated on one or more machines: every phase, the total and the speedup
// over the process counts, for each combination of the other parameters, and the best p.
#include <map>
#include <string>
#include <vector>

#include "app/app_model.hpp"
#include "model/model.hpp"

namespace augur::app {

// --set NAME=VALUE: a constant, a node term (tcompute, tflop, tbyte, in µs) or a parameter,
// which then takes that one value.
using Overrides = std::map<std::string, double, std::less<>>;

struct Row {
  double p = 1;
  std::vector<double> phases;  // µs, in the model's order
  double total = 0;            // µs
  double speedup = 0;          // the total at p = 1 over the total at p
};

// One machine and one combination of the parameters other than p.
struct Series {
  std::string machine;
  std::vector<double> parameters;  // values, in the order of Evaluation::parameter_names
  std::vector<Row> rows;
  std::size_t best = 0;            // the row with the least total
};

struct Evaluation {
  std::vector<std::string> parameter_names, phase_names;
  std::vector<Series> series;
  std::vector<std::string> notes;  // what was assumed, e.g. a placeholder compute step
  bool doubling = false;           // p doubles from one value to the next
};

// "t3d", or "t3d d=100" when there are other parameters.
std::string series_label(const Evaluation& evaluation, const Series& series);

// Throws model::ModelError (file:line, field, reason) for an operation or node term a machine
// lacks, std::invalid_argument for an override that names nothing, and std::runtime_error for a
// law that cannot answer at some point.
Evaluation evaluate(const AppModel& app, const std::vector<const model::Model*>& machines, const Overrides& overrides);

}  // namespace augur::app
