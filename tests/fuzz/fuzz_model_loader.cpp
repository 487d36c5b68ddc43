// libFuzzer target: any byte string handed to the model loader must either load or raise
// ModelError; a loaded model must answer queries or raise QueryError, at every level and
// placement of a machine of nodes, and its free-form settings must give a machine-state note or
// none. Anything else is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "model/machine_states.hpp"
#include "model/model_json.hpp"
#include "timing/levels.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    auto model = augur::model::parse_model(text, "fuzz.json");
    for (const auto& [name, op] : model.operations)
      for (double bytes : {0.0, 1.0, 217.0, 4096.0, 1e6})
        for (double p : {1.0, 2.0, 17.0})
          try {
            (void)model.estimate(name, p, bytes);
          } catch (const augur::model::QueryError&) {
          }
    if (model.nodes)
      for (int per_node : {2, 3}) {
        const augur::timing::LevelRules rules(model, augur::timing::Placement::block(per_node));
        for (const char* op : {"bcast", "allreduce", "gather", "barrier"})
          try {
            (void)rules.collective_duration(op, 6, {2, per_node}, 4096, false);
            (void)rules.pair(0, 1).transit(64);
          } catch (const augur::model::QueryError&) {
          }
      }
    (void)augur::model::prediction_note(model.provenance.settings);
    (void)augur::model::to_json(model).dump();
  } catch (const augur::model::ModelError&) {
  }
  return 0;
}
