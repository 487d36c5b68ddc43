#pragma once
// Choosing the machine and network a simulation runs on, shared by `augur sim` and `augur
// analyze` so both read --machine, --bound, --network, --loggops, --topology and --sharing alike.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/placement_options.hpp"
#include "model/model.hpp"
#include "sim/network/machine.hpp"
#include "sim/network/network.hpp"
#include "sim/network/scaling.hpp"

namespace augur::cli {

struct NetworkRequest {
  std::string bound = "avg";
  std::string network = "model";
  std::string loggops;
  std::string loggops_on_node;  // with `loggops`: the terms between two ranks of one node
  std::string topology;
  std::string sharing = "fair";
  PlacementRequest placement;  // which node each rank is on, for a machine of nodes (docs/nodes.md)
};

struct ChosenNetwork {
  std::unique_ptr<sim::Network> network;
  std::unique_ptr<sim::Machine> machine;  // the topology's, with --network topology
  std::shared_ptr<const model::Model> model;  // a model with a law scaled, which the network reads
};

// One machine parameter times a factor (sim/network/scaling.hpp); `compute` is the caller's
// (sim::Options::compute_scale), as it is no part of the network.
struct Scale {
  std::string knob;
  double factor = 1;
};

// Registers --bound, --network, --topology, --sharing, --loggops, --ranks-per-node and
// --placement, read into `r`.
void add_network_options(CLI::App& cmd, NetworkRequest& r);
// Runs a command's body with the simulator's input errors (a schedule's, a program it cannot
// run) turned into UsageError.
void with_usage_errors(const std::function<void()>& body);

// min (or low), avg, max (or high); throws UsageError for anything else.
model::Bound parse_bound(const std::string& bound);
// `ranks`: the program's, for a cyclic placement. `scales`: machine parameters scaled, in turn.
ChosenNetwork make_network(const NetworkRequest& r, const model::Model& m, int ranks = 0,
                           const std::vector<Scale>& scales = {});
// NAME=FACTOR of --scale; throws UsageError naming the text and the reason.
Scale parse_scale(const std::string& text);
// The parameters the network of `r` on `m` can scale, compute last.
std::vector<sim::Knob> knobs_of(const NetworkRequest& r, const model::Model& m);
// `requested` when given, else the trace's machine when it names a built-in or a file, else generic.
std::string machine_for(const std::string& requested, const std::string& trace_machine);

}  // namespace augur::cli
