#pragma once
// The machine parameters a sensitivity sweep scales (`augur sensitivity`, `augur sim --scale`),
// named alike on every network so that a question reads the same whatever prices the messages:
//   L  latency          LogGOPS L; a topology's link latencies (and its per-hop latency)
//   o  overhead         LogGOPS o, the sender's and the receiver's processor time per message
//   g  gap              LogGOPS g, the least time between two messages of one processor
//   G  time per byte    LogGOPS G; 1/bandwidth of a topology's links or of the model's network
//   O  overhead a byte  LogGOPS O
//   L:CLASS, G:CLASS    one class of a topology's links only (edge, core, direct, shared, memory)
//   law:OP              the model's law of operation OP (every regime), e.g. law:send
//   compute             every compute grain's time (sim::Options::compute_scale)
// A factor multiplies the parameter's cost, so a factor above 1 is always a worse machine:
// G × 2 is half the bandwidth.
#include <string>
#include <string_view>
#include <vector>

#include "model/model.hpp"
#include "sim/network/loggops.hpp"
#include "sim/network/machine.hpp"

namespace augur::sim {

struct Knob {
  std::string name;     // as above
  std::string meaning;  // for people: "latency", "time per byte (1/bandwidth) of core links"
  double value = 1;     // the parameter as it is: seconds, seconds per byte, or 1 for a factor
  std::string unit;     // "s", "s/B" or "x" (a factor of a law or of the compute)
};

// The parameters each network has, as it is. LogGOPS lists only its non-zero terms.
std::vector<Knob> loggops_knobs(const LogGOPSParams& params);
std::vector<Knob> machine_knobs(const Machine& machine);
// law:OP for every operation of the model, and G when its network section has a bandwidth.
std::vector<Knob> model_knobs(const model::Model& model, bool with_bandwidth);
Knob compute_knob();

// Copies with parameter `name` times `factor`. Throw std::invalid_argument naming the parameter
// when the copy has no such parameter or the factor is not a positive finite number.
LogGOPSParams scaled(LogGOPSParams params, std::string_view name, double factor);
Machine scaled(Machine machine, std::string_view name, double factor);
model::Model scaled(model::Model model, std::string_view name, double factor);

// Whether `name` is one a LogGOPS list, a machine or a model scales (compute is none of them).
bool is_loggops_knob(std::string_view name);
bool is_machine_knob(std::string_view name);
bool is_model_knob(std::string_view name);

// The class of a link: "memory" (a node's own), "edge" (a node to a switch), "core" (switch to
// switch), "direct" (node to node) or "shared" (a bus).
std::string link_class(const Machine& machine, const Link& link);

// Checks a factor: positive and finite; throws std::invalid_argument naming `name`.
void check_factor(std::string_view name, double factor);

}  // namespace augur::sim
