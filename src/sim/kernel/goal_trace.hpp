#pragma once
// A GOAL schedule's run as a trace, so the trace commands and augur learn read a GOAL file as
// the run it stands for (a schedule has no times of its own).
#include <string>

#include "sim/network/network.hpp"
#include "trace/trace.hpp"

namespace augur::sim {

// The GOAL file at `path` simulated on `network` (of the machine named `machine`) and recorded
// as `augur sim FILE --trace T` writes it.
trace::Trace goal_trace(const std::string& path, const Network& network, const std::string& machine);

}  // namespace augur::sim
