#include "cli/sim_setup.hpp"

#include <filesystem>
#include <memory>
#include <utility>

#include "cli/commands.hpp"
#include "model/machines.hpp"
#include "sim/network/loggops.hpp"
#include "sim/network/machine_json.hpp"
#include "sim/network/topology_network.hpp"
#include "sim/program/schedule.hpp"
#include "timing/rules.hpp"

namespace augur::cli {

void add_network_options(CLI::App& cmd, NetworkRequest& r) {
  cmd.add_option("--bound", r.bound, "which bound of the model, and of an app model's laws: min (low), avg or max (high)")->capture_default_str();
  cmd.add_option("--network", r.network, "model, loggops or topology")->capture_default_str();
  cmd.add_option("--topology", r.topology,
                 "with --network topology: a machine file (docs/machine-format.md) or NAME:params, e.g. torus:8x8");
  cmd.add_option("--sharing", r.sharing,
                 "with --network topology: fair (max-min, equal shares) or rtt (SimGrid CM02's: shares inversely "
                 "proportional to the route's latency, data flowing after it)")
      ->capture_default_str();
  cmd.add_option("--loggops", r.loggops, "LogGOPS parameters instead of the model's: L=…,o=…,g=…,G=…,O=…,S=…");
  add_placement_options(cmd, r.placement);
}

void with_usage_errors(const std::function<void()>& body) {
  try {
    body();
  } catch (const sim::ScheduleError& e) {
    throw UsageError(e.what());
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

namespace {

// The built-in model used when none is asked for: a sketch, not a measurement (machines/generic.json).
constexpr const char* kPlaceholderMachine = "generic";

}  // namespace

model::Bound parse_bound(const std::string& bound) {
  if (bound == "min" || bound == "low") return model::Bound::min;
  if (bound == "avg") return model::Bound::avg;
  if (bound == "max" || bound == "high") return model::Bound::max;
  throw UsageError("--bound must be min (or low), avg, or max (or high)");
}

ChosenNetwork make_network(const NetworkRequest& r, const model::Model& m, int ranks) {
  const auto bound = parse_bound(r.bound);
  if (!r.topology.empty() && r.network != "topology") throw UsageError("--topology needs --network topology");
  if (r.sharing != "fair" && r.network != "topology") throw UsageError("--sharing needs --network topology");
  ChosenNetwork out;
  if (r.network == "model") {
    out.network = std::make_unique<sim::ModelNetwork>(m, bound, make_placement(r.placement, ranks));
  } else if (r.network == "topology") {
    if (r.topology.empty()) throw UsageError("--network topology needs --topology FILE or NAME:params (see `augur machines`)");
    try {
      out.machine = std::make_unique<sim::Machine>(sim::machine_from_argument(r.topology));
    } catch (const std::runtime_error& e) {  // the file's errors: ModelError, ParasolError
      throw UsageError(e.what());
    }
    sim::Sharing sharing;
    try {
      sharing = sim::parse_sharing(r.sharing);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--sharing: ") + e.what());
    }
    // Ranks of one node talk through the model's one-way time (its on-node level for a machine of
    // nodes, its shared memory when the model was measured on one node), not through the
    // machine's links. The placeholder's 10 µs a byte is no machine's shared memory: under it
    // they talk at once.
    sim::OnNodeTransit on_node;
    if (m.machine.name != kPlaceholderMachine) {
      auto level = std::make_shared<const model::Model>(m.on_node_level());
      on_node = [level, rules = timing::Rules(*level, bound)](double bytes) { return rules.transit(bytes); };
    }
    out.network = std::make_unique<sim::TopologyNetwork>(*out.machine, sharing, std::move(on_node));
  } else if (r.network != "loggops") {
    throw UsageError("--network must be model, loggops or topology");
  } else if (!r.loggops.empty()) {
    out.network = std::make_unique<sim::LogGOPSNetwork>(sim::parse_loggops(r.loggops));
  } else {
    out.network = std::make_unique<sim::LogGOPSNetwork>(m, bound);
  }
  return out;
}

std::string machine_for(const std::string& requested, const std::string& trace_machine) {
  if (!requested.empty()) return requested;
  for (const auto& name : model::builtin_machine_names())
    if (name == trace_machine) return name;
  if (!trace_machine.empty() && std::filesystem::is_regular_file(trace_machine)) return trace_machine;
  return kPlaceholderMachine;
}

}  // namespace augur::cli
