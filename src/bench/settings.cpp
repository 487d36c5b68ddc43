#include "bench/settings.hpp"

#include <algorithm>
#include <stdexcept>

namespace augur::bench {

Sync parse_sync(std::string_view name) {
  if (name == "barrier") return Sync::barrier;
  if (name == "window") return Sync::window;
  throw std::invalid_argument("unknown synchronisation '" + std::string(name) + "' (barrier or window)");
}

std::string_view sync_name(Sync sync) { return sync == Sync::barrier ? "barrier" : "window"; }

namespace {

// What each preset changes of the defaults in settings.hpp, and how many passes `augur bench`
// launches for it.
//
// Passes: a point is pooled from several passes, each a launch of its own, so that a spell of the
// machine's slow state falls on one pass of a point rather than on the point. A few passes are
// not yet the machine at its best: two quick runs' models, and a full run's fit, come closer
// with more passes (docs/machine-states.md, "Why passes"), and passes share the preset's
// repetitions, so more cost little. Quick runs take 25. The others keep 15, so that a full run
// stays within its 20 minutes.
//
// Budgets are for the whole run, calibration, launches, node kernels and fit included
// (budget.hpp): 3 minutes for a quick run, 10 standard, 20 full.
struct Preset {
  std::string_view name;
  std::uint64_t max_bytes;
  double target;
  int warmup, min_reps, max_reps;
  double point_seconds, budget_seconds;
  int refine_limit;
  int passes;
};

constexpr Preset kPresets[] = {
    {"quick", 1 << 20, 0.03, 3, 20, 200, 0.25, 180, 4, 25},
    {"standard", 4 << 20, 0.05, 3, 12, 300, 1.0, 600, 4, 15},
    {"full", 16 << 20, 0.03, 5, 20, 1000, 3.0, 1200, 8, 15},
};

const Preset& find_preset(std::string_view name) {
  for (const auto& p : kPresets)
    if (p.name == name) return p;
  throw std::invalid_argument("unknown preset '" + std::string(name) + "' (quick, standard or full)");
}

}  // namespace

int reps_per_pass(int reps, int passes) {
  return std::max(std::min(reps, kFewestRepsPerPass), (reps + passes - 1) / passes);
}

int preset_passes(std::string_view name) { return find_preset(name).passes; }

SweepSettings preset_settings(std::string_view name) {
  const auto& p = find_preset(name);
  SweepSettings s;
  s.preset = std::string(name);
  s.max_bytes = p.max_bytes;
  s.target = p.target;
  s.warmup = p.warmup;
  s.min_reps = p.min_reps;
  s.max_reps = p.max_reps;
  s.point_seconds = p.point_seconds;
  s.budget_seconds = p.budget_seconds;
  s.refine_limit = p.refine_limit;
  return s;
}

nlohmann::json to_json(const SweepSettings& s) {
  return {{"preset", s.preset},
          {"operations", s.operations},
          {"groups", s.groups},
          {"max_bytes", s.max_bytes},
          {"target_ci", s.target},
          {"warmup", s.warmup},
          {"min_reps", s.min_reps},
          {"max_reps", s.max_reps},
          {"point_seconds", s.point_seconds},
          {"budget_seconds", s.budget_seconds},
          {"passes", s.passes},
          {"refine_limit", s.refine_limit},
          {"refine_tolerance", s.refine_tolerance},
          {"fresh_buffers", s.fresh_buffers},
          {"sync", sync_name(s.sync)},
          {"back_to_back", s.back_to_back},
          {"discard_preempted", s.discard_preempted}};
}

}  // namespace augur::bench
