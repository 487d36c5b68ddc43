#pragma once
// Planning a run of `augur bench` to end within a time budget (docs/bench.md, "Budget").
//
// A short calibration launch measures the network (an 8-byte and a large ping-pong) and what a
// launch costs; from them the planner estimates what one pass of the sweep costs at its fewest
// repetitions, and gives up, in a fixed order, what the budget cannot hold: passes beyond the
// fewest that pool well, then the largest messages, then the largest groups, then the remaining
// passes (on several nodes the passes before the groups), then the largest messages again, then
// the warm-up. The estimate covers only the fewest repetitions; the rest of the budget goes,
// point by point, to the medians that are not yet precise (the sweep's pacing), and the run
// re-plans its passes from the time each one took.
// No MPI here, so the planner can be tested on its own.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/plan.hpp"

namespace augur::bench {

// What the calibration launch measured, or what a dry run assumes.
struct Calibration {
  double latency = 0;         // seconds one way of an 8-byte message (half a round trip)
  double bandwidth = 0;       // bytes per second of the large ping-pong, latency excluded
  double launch_seconds = 0;  // one launch of the MPI program: mpirun, MPI_Init, MPI_Finalize
  // Measured one-way times of larger messages, (bytes, seconds), sizes upwards; empty: none.
  std::vector<std::pair<double, double>> messages;
};

// One message's time: latency + bytes / bandwidth, or more where the measured times between
// which `bytes` lies (interpolated; beyond the largest, in proportion to the size) say so. A link
// that stalls on some sizes (a retransmission after a full queue) costs what it measured.
double message_seconds(const Calibration& calibration, double bytes);

// What the run would measure with no budget, and what it has already spent.
struct BudgetRequest {
  double budget_seconds = 0;
  double spent_seconds = 0;      // gone before the plan: the calibration launch
  std::vector<int> operations;   // indices into kOperations
  std::vector<int> groups;       // group sizes, ascending
  Nodes machine;                 // the nodes the calibration found: each group at its placements
  std::uint64_t max_bytes = 0;
  int passes = 1;
  int warmup = 0;
  int min_reps = 0, max_reps = 0;  // over all passes, as in SweepSettings before they are shared
  double kernel_seconds = 0;     // the node kernels in the first pass; 0 without them
};

struct BudgetPlan {
  int passes = 1;
  std::uint64_t max_bytes = 0;
  std::vector<int> groups;
  int warmup = 0;
  // Repetitions a point gets in each pass, at least and at most: the preset's share per pass
  // whatever the passes planned, so that fewer passes cost less (the run then pools fewer).
  int reps_per_pass = 0, max_reps_per_pass = 0;
  double pass_seconds = 0;      // one pass at those repetitions, its launch included
  double fixed_seconds = 0;     // what is not passes: calibration, node kernels, the fit
  double estimate_seconds = 0;  // the whole run at the fewest repetitions
  // What the passes may spend together: the budget less the fixed part, kept back by a margin
  // for a machine that slows down while the run goes on. The sweep's pacing fills it.
  double measuring_seconds = 0;
  bool fits = true;  // false: even the smallest plan's estimate exceeds the budget
};

// Seconds one point costs at `reps` repetitions after `warmup`: the clock synchronisation and
// state probes around it, and each repetition's barrier and call (back-to-back calls fill about
// 100 µs, docs/bench.md). Messages cost latency + bytes / bandwidth each; a collective on p
// processes is taken as p − 1 of them in a row, an upper bound for the trees it usually is.
double point_seconds(const Calibration& calibration, const Point& point, int warmup, int reps);

// One pass over `plan`, with a tenth more for the sizes refinement adds, and its launch.
double pass_seconds(const Calibration& calibration, const std::vector<Point>& plan, int warmup, int reps);

// The fit after the last pass, for `measurements` records (measured: 4.6 s for 26 000 here).
double fit_seconds(double measurements);

// The largest plan whose estimate fits, giving things up in the order at the top of this file.
BudgetPlan plan_budget(const Calibration& calibration, const BudgetRequest& request);

// Passes the run can still make, `made` of them done, when the last took `last_pass_seconds`
// and `seconds_left` remain of the budget (the fit's reserve excluded): as many of the `planned`
// ones as the time allows, and beyond them up to `most` (the preset's), each with room for
// kExtraPassMargin times the last pass. The plan's estimate errs high where its messages go
// faster than latency + bytes / bandwidth: over TCP here a quick run's 5 planned passes ended at
// 101 s of 180 (docs/benchmarks.md). Every pass more is another launch, another draw of the
// machine's state, for a point's faster half to be pooled from.
inline constexpr double kExtraPassMargin = 1.25;
int passes_that_fit(int planned, int most, int made, double last_pass_seconds, double seconds_left);

// The plan as the lines `augur bench` prints before it measures (and alone with --dry-run).
std::vector<std::string> describe_plan(const BudgetPlan& plan, const BudgetRequest& request,
                                       const Calibration& calibration);

// What the budget left out of the run, for the model's provenance.settings.budget
// (docs/model-format.md); model::BudgetRecord reads it.
nlohmann::json left_out_record(const BudgetPlan& plan, const BudgetRequest& request, int passes_made);

}  // namespace augur::bench
