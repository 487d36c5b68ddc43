#include "analyze/analysis.hpp"

#include <stdexcept>

namespace augur::analyze {

Analysis analyze_trace(const trace::Trace& trace, const MessageCosts& costs, const Scaling& scaling) {
  if (trace.nranks() < 1) throw std::invalid_argument("the trace has no ranks");
  Analysis a;
  const auto deps = find_dependencies(trace);
  a.unmatched = deps.unmatched;
  a.events = trace.event_count();
  a.path = critical_path(trace, deps, costs, scaling);
  a.shares = shares_of(trace, a.path);
  a.load = critical_load(deps, a.path, costs);
  a.advice = advise(a.path, a.load, a.shares);
  return a;
}

}  // namespace augur::analyze
