#pragma once
// What-if: the program re-simulated with a tuning, or on another machine, its new run time set
// beside the bound the baseline's critical path and load put on it before simulating.
#include <cmath>
#include <limits>
#include <string>

#include "analyze/analysis.hpp"
#include "analyze/resimulate.hpp"
#include "analyze/tuning.hpp"
#include "sim/program/program.hpp"

namespace augur::analyze {

struct WhatIf {
  std::string description;
  double baseline = 0;  // the untuned program, re-simulated
  double tuned = 0;     // the tuned program, re-simulated
  // The optimistic limit of the tuned program from the baseline run's path and load with the
  // tuning applied to their weights; NaN when it cannot be known beforehand (another machine).
  double bound = std::numeric_limits<double>::quiet_NaN();
  // Some receive matched another message than in the baseline (wildcards in simulated order):
  // the bound is for the baseline's matching, and a new order may beat it.
  bool rematched = false;
  Analysis after;       // the tuned run's own analysis
};

// `grains` indexes `baseline.trace` (with the phases of the trace it replays).
WhatIf what_if(const sim::FlatProgram& program, const SimulatedRun& baseline, const GrainIndex& grains,
               const Tuning& tuning, const SimSetup& setup);

// The same program on `other` (a machine's network).
WhatIf what_if_machine(const sim::FlatProgram& program, const SimulatedRun& baseline, const SimSetup& other,
                       const std::string& name);

// A tuning that scales every compute grain on the critical path of `path` by `factor`.
Tuning scale_critical_path(const CriticalPath& path, const GrainIndex& grains, double factor);

}  // namespace augur::analyze
