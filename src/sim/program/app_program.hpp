#pragma once
// An application model's program (app/app_program.hpp) at one process count, ready to simulate:
// every law evaluated once at that p, loops unrolled, each rank's peers resolved from their
// rules, and ranks whose operations come out the same sharing one body. Peers are kept relative
// to the rank, so the interior ranks of a 2-D stencil share one body and 65,536 ranks store nine.
#include <cstddef>
#include <map>
#include <memory>
#include <string>

#include "app/app_model.hpp"
#include "model/regime.hpp"
#include "sim/program/program.hpp"

namespace augur::sim {

struct AppSettings {
  std::map<std::string, double> parameters;  // --set: a parameter with several values needs one
  model::Bound bound = model::Bound::avg;    // min: the laws' low bounds, max: their high ones
  double compute_scale = 1;                  // multiplies every compute time
  std::size_t max_operations = std::size_t(1) << 26;  // all bodies together, 32 bytes each
};

// Throws model::ModelError (file:line, field, reason) for a law without a value at `ranks`, a
// fixed rank outside the world or a program that unrolls past the limit; std::invalid_argument
// for a model without a program, a bad rank count or settings that name nothing.
std::unique_ptr<FlatProgram> instantiate(const app::AppModel& app, int ranks, const AppSettings& settings = {});

}  // namespace augur::sim
