#include "bench/settings.hpp"

#include <stdexcept>

namespace augur::bench {

Sync parse_sync(std::string_view name) {
  if (name == "barrier") return Sync::barrier;
  if (name == "window") return Sync::window;
  throw std::invalid_argument("unknown synchronisation '" + std::string(name) + "' (barrier or window)");
}

std::string_view sync_name(Sync sync) { return sync == Sync::barrier ? "barrier" : "window"; }

SweepSettings preset_settings(std::string_view name) {
  SweepSettings s;
  s.preset = std::string(name);
  if (name == "quick") {
    s.max_bytes = 1 << 20;
    s.target = 0.03;
    s.warmup = 3;
    s.min_reps = 20;
    s.max_reps = 200;
    s.point_seconds = 0.25;
    s.budget_seconds = 140;
    s.refine_limit = 2;
  } else if (name == "standard") {
    s.max_bytes = 4 << 20;
    s.warmup = 3;
    s.min_reps = 12;
    s.max_reps = 300;
    s.point_seconds = 1.0;
    s.budget_seconds = 480;
    s.refine_limit = 4;
  } else if (name == "full") {
    s.max_bytes = 16 << 20;
    s.target = 0.03;
    s.warmup = 5;
    s.min_reps = 20;
    s.max_reps = 1000;
    s.point_seconds = 3.0;
    s.budget_seconds = 1020;
    s.refine_limit = 8;
  } else {
    throw std::invalid_argument("unknown preset '" + std::string(name) + "' (quick, standard or full)");
  }
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
          {"refine_limit", s.refine_limit},
          {"refine_tolerance", s.refine_tolerance},
          {"fresh_buffers", s.fresh_buffers},
          {"sync", sync_name(s.sync)},
          {"back_to_back", s.back_to_back},
          {"discard_preempted", s.discard_preempted}};
}

}  // namespace augur::bench
