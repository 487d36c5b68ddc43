#include "sim/kernel/goal_trace.hpp"

#include "sim/kernel/kernel.hpp"
#include "sim/kernel/trace_sink.hpp"
#include "sim/program/goal.hpp"

namespace augur::sim {

trace::Trace goal_trace(const std::string& path, const Network& network, const std::string& machine) {
  const auto program = read_goal_file(path);
  TraceRecorder recorder(program->nranks(),
                         trace::TraceHeader{trace::TraceMode::simulated, machine, "seconds, simulated", "augur sim " + path});
  simulate(*program, network, {}, &recorder);
  return recorder.trace();
}

}  // namespace augur::sim
