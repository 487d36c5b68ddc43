// libFuzzer target: any byte string handed to the machine-file reader must either load or raise
// ModelError, and to the topology generators either generate or raise std::invalid_argument; a
// loaded machine must route between any two of its nodes or say it cannot. Anything else is a bug.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "model/error.hpp"
#include "sim/network/machine_json.hpp"
#include "sim/network/routing.hpp"
#include "sim/network/topologies.hpp"

namespace {

void route_some(const augur::sim::Machine& m) {
  if (m.vertices() > 4096) return;  // bounded work per input
  augur::sim::Router router(m);
  for (int a = 0; a < m.nodes() && a < 8; ++a)
    for (int b = 0; b < m.nodes() && b < 8; ++b) try {
        (void)router.route(a, b);
      } catch (const std::invalid_argument&) {  // unreachable vertices
      }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    route_some(augur::sim::parse_machine(text, "fuzz.json"));
  } catch (const augur::model::ModelError&) {
  }
  if (size < 64) try {
      route_some(augur::sim::generate_topology(text));
    } catch (const std::invalid_argument&) {
    }
  return 0;
}
