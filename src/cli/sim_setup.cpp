#include "cli/sim_setup.hpp"

#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "model/machines.hpp"
#include "sim/network/loggops.hpp"
#include "sim/network/machine_json.hpp"
#include "sim/network/topology_network.hpp"
#include "sim/program/schedule.hpp"
#include "timing/rules.hpp"
#include "util/numbers.hpp"

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
  cmd.add_option("--loggops-on-node", r.loggops_on_node,
                 "with --loggops on a machine of nodes (--ranks-per-node, --placement): the LogGOPS parameters "
                 "between two ranks of one node; --loggops's are then those between nodes");
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

namespace {

bool network_part(const Scale& s) { return s.knob != "compute"; }

}  // namespace

Scale parse_scale(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw UsageError(fmt::format("--scale '{}': give NAME=FACTOR, e.g. L=2 (latency doubled) or G=0.5", text));
  const auto factor = util::parse_number(text.substr(eq + 1));
  if (!factor || !(*factor > 0) || !std::isfinite(*factor))
    throw UsageError(fmt::format("--scale '{}': the factor '{}' must be a positive number", text, text.substr(eq + 1)));
  return {text.substr(0, eq), *factor};
}

std::vector<sim::Knob> knobs_of(const NetworkRequest& r, const model::Model& m) {
  std::vector<sim::Knob> out;
  if (r.network == "topology") {
    out = sim::machine_knobs(sim::machine_from_argument(r.topology));
  } else if (r.network == "loggops" && !r.loggops.empty()) {
    out = sim::loggops_knobs(sim::parse_loggops(r.loggops));
  } else {
    out = sim::model_knobs(m, r.network == "model");
  }
  out.push_back(sim::compute_knob());
  return out;
}

ChosenNetwork make_network(const NetworkRequest& r, const model::Model& base, int ranks, const std::vector<Scale>& scales) {
  const auto bound = parse_bound(r.bound);
  if (!r.topology.empty() && r.network != "topology") throw UsageError("--topology needs --network topology");
  if (r.sharing != "fair" && r.network != "topology") throw UsageError("--sharing needs --network topology");
  if (!r.loggops_on_node.empty() && (r.network != "loggops" || r.loggops.empty()))
    throw UsageError("--loggops-on-node needs --network loggops --loggops L=…: the terms between nodes");
  ChosenNetwork out;
  // A law (or the model's bandwidth) scaled: the network reads a scaled copy of the model.
  const bool explicit_loggops = r.network == "loggops" && !r.loggops.empty();
  if (r.network != "topology" && !explicit_loggops) {
    std::optional<model::Model> scaled;
    for (const auto& s : scales)
      if (network_part(s)) scaled = sim::scaled(scaled ? std::move(*scaled) : base, s.knob, s.factor);
    if (scaled) out.model = std::make_shared<const model::Model>(std::move(*scaled));
  }
  const model::Model& m = out.model ? *out.model : base;
  if (r.network == "model") {
    out.network = std::make_unique<sim::ModelNetwork>(m, bound, make_placement(r.placement, ranks));
  } else if (r.network == "topology") {
    if (r.topology.empty()) throw UsageError("--network topology needs --topology FILE or NAME:params (see `augur machines`)");
    try {
      out.machine = std::make_unique<sim::Machine>(sim::machine_from_argument(r.topology));
      for (const auto& s : scales)
        if (network_part(s)) *out.machine = sim::scaled(std::move(*out.machine), s.knob, s.factor);
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
    const auto given = [&](const std::string& text, const char* option) {
      sim::LogGOPSParams params;
      try {
        params = sim::parse_loggops(text);
      } catch (const std::invalid_argument& e) {
        throw UsageError(fmt::format("{}: {}", option, e.what()));
      }
      for (const auto& s : scales)
        if (network_part(s)) params = sim::scaled(params, s.knob, s.factor);
      return params;
    };
    if (r.loggops_on_node.empty()) out.network = std::make_unique<sim::LogGOPSNetwork>(given(r.loggops, "--loggops"));
    else
      out.network = std::make_unique<sim::LogGOPSNetwork>(given(r.loggops, "--loggops"),
                                                          given(r.loggops_on_node, "--loggops-on-node"),
                                                          make_placement(r.placement, ranks));
  } else {
    out.network = std::make_unique<sim::LogGOPSNetwork>(m, bound, make_placement(r.placement, ranks));
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
