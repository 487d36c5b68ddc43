#include "learn/learned_model_json.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "app/app_program_json.hpp"
#include "learn/app_phases.hpp"

namespace augur::learn {
namespace {

// p from 1 to 64 times the largest count traced, and the problem sizes traced, each once.
nlohmann::ordered_json parameters_json(const Learned& learned, const std::string& parameter, std::vector<double> values) {
  const auto& counts = learned.program.measured_ranks;
  nlohmann::ordered_json out{{"p", {{"from", 1}, {"to", counts.back() * 64}, {"scale", "doubling"}}}};
  if (parameter.empty()) return out;
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  out[parameter] = {{"values", values}};
  return out;
}

}  // namespace

nlohmann::ordered_json learned_model_json(const Learned& learned, const std::string& name, const std::string& program,
                                          const std::string& parameter, const std::vector<double>& values) {
  nlohmann::ordered_json phases = nlohmann::ordered_json::array();
  for (const auto& ph : phases_of(learned.program)) phases.push_back({{"name", ph.name}, {"expr", ph.expr}});
  return {{"augur_app", 1},
          {"name", name},
          {"description", "learned by augur learn from traces of " + program},
          {"source", fmt::format("traces at p = {}", fmt::join(learned.program.measured_ranks, ", "))},
          {"units", {{"size", "bytes"}}},
          {"parameters", parameters_json(learned, parameter, values)},
          {"phases", phases},
          {"program", app::program_to_json(learned.program)}};
}

}  // namespace augur::learn
