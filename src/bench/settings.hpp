#pragma once
// How thoroughly to measure. The presets trade time for precision; every field can be changed
// on the command line, and the whole set is recorded in the raw file's header.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace augur::bench {

// How the ranks start a repetition together (measure.hpp).
enum class Sync { barrier, window };

Sync parse_sync(std::string_view name);  // throws std::invalid_argument
std::string_view sync_name(Sync sync);

// Most passes a run may make (`--passes`).
constexpr int kMostPasses = 99;

struct SweepSettings {
  std::string preset = "quick";
  std::vector<std::string> operations;  // catalog names; empty = every operation
  std::vector<int> groups;              // group sizes; empty = group_sizes(world)
  std::uint64_t max_bytes = 0;          // largest message, per process
  double target = 0.05;                 // relative half-width of the 95% CI of the median
  int warmup = 0;                       // untimed repetitions before each point
  int min_reps = 0;
  int max_reps = 0;
  double point_seconds = 0;             // most time one point may take (after min_reps)
  double budget_seconds = 0;            // the whole run, all passes; 0 = no limit (budget.hpp)
  // A run sweeps its plan `passes` times, each pass in a launch of its own, so that every point
  // is measured at several moments and a slow spell of the machine hits one of them
  // (fit/pooling.hpp). Pass 1 measures the plan, the middle pass adds sizes where curves bend
  // (plan.hpp), and every pass measures what the earlier ones did.
  int pass = 1;
  int passes = 1;
  double pass_budget_seconds() const { return budget_seconds / passes; }
  // This launch stops measuring after so many seconds of its sweep, leaving the points it did not
  // reach to later passes; 0 = no limit. How `augur bench` holds a run to its budget when the
  // machine slows down; a launch's own setting, not recorded.
  double stop_after_seconds = 0;
  int refine_limit = 0;                 // sizes added per curve where it bends
  // Bend (relative, plan.hpp) that earns extra sizes. A jump of ×R between neighbouring sizes
  // bends its lower end by (R−1)/3 and its upper end by less than 2/3, so 0.7 takes protocol
  // switches (×3 or more), once each; at 0.15 the upper ends and mere curvature also qualified,
  // and two runs added sizes to different curves.
  double refine_tolerance = 0.7;
  bool fresh_buffers = false;           // rotate buffers through memory larger than the caches
  Sync sync = Sync::window;
  // Short collectives timed as the mean of a back-to-back sequence, as programs call them in
  // loops (measure.hpp); false times every call on its own.
  bool back_to_back = true;
  // Drop repetitions during which a rank was preempted. Off when ranks outnumber processors,
  // where preemption is part of what is measured.
  bool discard_preempted = true;
};

// "quick", "standard" or "full"; throws std::invalid_argument for another name.
SweepSettings preset_settings(std::string_view name);
// How many passes, each a launch of its own, `augur bench` makes of a preset. One launch of the
// MPI program is one pass unless told otherwise (`--passes`).
int preset_passes(std::string_view name);

nlohmann::json to_json(const SweepSettings& settings);

// Fewest repetitions a pass gives a point when the run's are shared out among its passes.
constexpr int kFewestRepsPerPass = 5;

// Each pass takes its share of a run's `reps`, so that a run of several passes costs about
// what one pass did, and the pooled point has about as many repetitions as one pass used to.
int reps_per_pass(int reps, int passes);

}  // namespace augur::bench
