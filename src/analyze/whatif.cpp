#include "analyze/whatif.hpp"

#include <fmt/format.h>

#include "analyze/order.hpp"

namespace augur::analyze {

WhatIf what_if(const sim::FlatProgram& program, const SimulatedRun& baseline, const GrainIndex& grains,
               const Tuning& tuning, const SimSetup& setup) {
  WhatIf w;
  w.description = tuning.describe();
  w.baseline = baseline.time;
  const auto costs = setup.costs();
  w.bound = analyze_trace(baseline.trace, costs, scaling_for(tuning, grains, baseline.trace)).advice.limit;
  const auto tuned = resimulate(*tuned_program(program, tuning, grains), setup);
  w.tuned = tuned.time;
  w.rematched = matching_changed(baseline.trace, tuned.trace);
  w.after = analyze_trace(tuned.trace, costs);
  return w;
}

WhatIf what_if_machine(const sim::FlatProgram& program, const SimulatedRun& baseline, const SimSetup& other,
                       const std::string& name) {
  WhatIf w;
  w.description = "machine " + name;
  w.baseline = baseline.time;
  const auto run = resimulate(program, other);
  w.tuned = run.time;
  w.after = analyze_trace(run.trace, other.costs());
  return w;
}

Tuning scale_critical_path(const CriticalPath& path, const GrainIndex& grains, double factor) {
  Tuning t;
  for (const auto& s : path.segments)
    if (s.kind == SegmentKind::compute && s.length > 0)
      t.grains[fmt::format("{}:{}", s.rank, grains.ordinal(s.rank, s.state))] = factor;
  return t;
}

}  // namespace augur::analyze
