// libFuzzer target: any byte string handed to the application-model reader must either load or
// raise ModelError; a loaded model must evaluate on a built-in machine or say why it cannot
// (ModelError for what the machine lacks, runtime_error for a law with no answer at a point),
// and its program, if it has one, must instantiate at a few counts or say why it cannot
// (ModelError naming the field, invalid_argument for settings). Anything else is a bug.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string_view>

#include "app/app_model.hpp"
#include "app/evaluate.hpp"
#include "model/error.hpp"
#include "model/machines.hpp"
#include "sim/program/app_program.hpp"

namespace {

void instantiate_program(const augur::app::AppModel& app) {
  augur::sim::AppSettings settings;
  for (const auto& param : app.parameters) settings.parameters[param.name] = param.values.front();
  settings.max_operations = 1 << 16;  // a valid file may unroll to millions
  for (const int ranks : {1, 4, 7}) {
    try {
      (void)augur::sim::instantiate(app, ranks, settings);
    } catch (const augur::model::ModelError&) {
    } catch (const std::invalid_argument&) {
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto machine = augur::model::load_machine("t3d");
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    auto app = augur::app::parse_app_model(text, "fuzz.json");
    if (app.program) instantiate_program(app);
    // A few points only: a valid file may ask for thousands.
    app.processes.values.resize(std::min<std::size_t>(app.processes.values.size(), 3));
    for (auto& param : app.parameters) param.values.resize(1);
    (void)augur::app::evaluate(app, {&machine}, {});
  } catch (const augur::model::ModelError&) {
  } catch (const std::runtime_error&) {
  }
  return 0;
}
