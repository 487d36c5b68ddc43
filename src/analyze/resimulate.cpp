#include "analyze/resimulate.hpp"

#include "sim/kernel/trace_sink.hpp"

namespace augur::analyze {

SimSetup make_setup(std::function<std::unique_ptr<sim::Network>()> make_network, const sim::Machine* machine,
                    sim::Options options) {
  SimSetup s{std::move(make_network), machine, std::move(options), nullptr};
  s.pricing = s.make_network();
  return s;
}

SimulatedRun resimulate(const sim::Program& program, const SimSetup& setup) {
  sim::TraceRecorder recorder(program.nranks(),
                              trace::TraceHeader{trace::TraceMode::simulated, "", "seconds, simulated", "augur analyze"});
  const auto result = sim::simulate(program, *setup.make_network(), setup.options, &recorder);
  return {result.predicted, recorder.trace()};
}

}  // namespace augur::analyze
