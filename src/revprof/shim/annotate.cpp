// The annotation entry points of include/augur/annotate.h. A program built with that header
// calls these only when the shim is loaded, so it runs unchanged without it.
#include "augur/annotate.h"

#include "revprof/shim/runtime.hpp"

using namespace augur::revprof;

namespace {

void add_annotated(double seconds) {
  auto& rt = runtime();
  ShimLock lock;
  if (!rt.active || call_depth() != 0) return;
  account_compute();
  if (rt.config.compute != ComputeMode::annotated || rt.compute_paused || !(seconds > 0)) return;
  add_compute_seconds(seconds);
}

}  // namespace

extern "C" {

void augur_revprof_compute(double seconds) { add_annotated(seconds); }

void augur_revprof_compute_steps(double steps) {
  auto& rt = runtime();
  if (rt.active) add_annotated(steps * rt.model.compute.step_seconds());
}

void augur_revprof_phase_begin(const char* name) {
  auto& rt = runtime();
  ShimLock lock;
  if (!rt.active || !rt.trace) return;
  account_compute();
  to_trace([&](augur::trace::RankWriter& t) { t.phase_begin(shown(rt.now), name); });
}

void augur_revprof_phase_end(const char* name) {
  auto& rt = runtime();
  ShimLock lock;
  if (!rt.active || !rt.trace) return;
  account_compute();
  to_trace([&](augur::trace::RankWriter& t) { t.phase_end(shown(rt.now), name); });
}

}  // extern "C"
