// libFuzzer target: any byte string handed to the application-model reader must either load or
// raise ModelError; a loaded model must evaluate on a built-in machine or say why it cannot
// (ModelError for what the machine lacks, runtime_error for a law with no answer at a point).
// Anything else is a bug.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "app/app_model.hpp"
#include "app/evaluate.hpp"
#include "model/error.hpp"
#include "model/machines.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto machine = augur::model::load_machine("t3d");
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    auto app = augur::app::parse_app_model(text, "fuzz.json");
    // A few points only: a valid file may ask for thousands.
    app.processes.values.resize(std::min<std::size_t>(app.processes.values.size(), 3));
    for (auto& param : app.parameters) param.values.resize(1);
    (void)augur::app::evaluate(app, {&machine}, {});
  } catch (const augur::model::ModelError&) {
  } catch (const std::runtime_error&) {
  }
  return 0;
}
