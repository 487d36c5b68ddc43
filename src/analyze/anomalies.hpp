#pragma once
// The anomaly sweep (seed 004): shrink each grain in turn, re-simulate, and keep those whose
// reduction made the whole run longer, with the events that changed order. Grains are the
// trace's phases when it has any, else every compute grain when there are few enough, else
// every rank's compute.
#include <string>
#include <vector>

#include "analyze/resimulate.hpp"
#include "analyze/tuning.hpp"

namespace augur::analyze {

struct Anomaly {
  std::string grain;  // as --scale-grain names it, or "rank R"
  double baseline = 0, tuned = 0;
  std::vector<std::string> reordered;
};

struct Sweep {
  double factor = 0.5;
  std::string grains;            // what was swept: "phases", "grains", "ranks"
  std::size_t tried = 0;
  std::vector<Anomaly> anomalies;
  std::string note;              // why nothing or only part was swept
};

Sweep sweep_anomalies(const sim::FlatProgram& program, const SimulatedRun& baseline, const GrainIndex& grains,
                      const SimSetup& setup, double factor, std::size_t max_runs);

}  // namespace augur::analyze
