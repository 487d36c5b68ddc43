/* Annotations for programs run under `augur run` (the reverse profiler).
 *
 *   augur_compute(seconds)    this much computation on the target machine happens here
 *   augur_compute_steps(n)    n compute steps of the target model's compute.seconds_per_step
 *   augur_phase_begin("name") / augur_phase_end("name")   a named phase in the trace
 *
 * Computation annotations count with `augur run --compute annotated`. The entry points are weak
 * references: without the reverse profiler loaded they are null and the calls do nothing, so an
 * annotated program builds and runs unchanged with any MPI. C and C++. */
#ifndef AUGUR_ANNOTATE_H
#define AUGUR_ANNOTATE_H

#ifdef __cplusplus
extern "C" {
#endif

void augur_revprof_compute(double seconds) __attribute__((weak));
void augur_revprof_compute_steps(double steps) __attribute__((weak));
void augur_revprof_phase_begin(const char* name) __attribute__((weak));
void augur_revprof_phase_end(const char* name) __attribute__((weak));

static inline void augur_compute(double seconds) {
  if (augur_revprof_compute) augur_revprof_compute(seconds);
}
static inline void augur_compute_steps(double steps) {
  if (augur_revprof_compute_steps) augur_revprof_compute_steps(steps);
}
static inline void augur_phase_begin(const char* name) {
  if (augur_revprof_phase_begin) augur_revprof_phase_begin(name);
}
static inline void augur_phase_end(const char* name) {
  if (augur_revprof_phase_end) augur_revprof_phase_end(name);
}

#ifdef __cplusplus
}
#endif

#endif
