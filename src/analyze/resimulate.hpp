#pragma once
// Re-simulating a program (the run replayed, tuned or on another machine) with the simulator of
// src/sim, keeping the simulated run as a trace so it can be analysed and compared in turn.
#include <functional>
#include <memory>

#include "analyze/costs.hpp"
#include "sim/kernel/kernel.hpp"
#include "trace/trace.hpp"

namespace augur::analyze {

// How to re-simulate: a fresh network for every run (a topology's flows keep their state), one
// more that only prices undisturbed messages, the topology's machine (for link loads) and the
// kernel's options.
struct SimSetup {
  std::function<std::unique_ptr<sim::Network>()> make_network;
  const sim::Machine* machine = nullptr;
  sim::Options options;
  std::shared_ptr<const sim::Network> pricing;
  MessageCosts costs() const { return MessageCosts(pricing.get(), machine); }
};

SimSetup make_setup(std::function<std::unique_ptr<sim::Network>()> make_network, const sim::Machine* machine = nullptr,
                    sim::Options options = {});

struct SimulatedRun {
  double time = 0;
  trace::Trace trace;
};

SimulatedRun resimulate(const sim::Program& program, const SimSetup& setup);

}  // namespace augur::analyze
