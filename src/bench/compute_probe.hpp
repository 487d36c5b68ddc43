#pragma once
// How fast the machine computes around each point: the compute step of the model's
// compute.seconds_per_step (node/kernels.hpp) run a fixed number of times, about 0.15 ms here,
// beside every state probe (state_probe.hpp). The fit takes the spread of these probes over the
// run as the compute's states (fit/compute_states.hpp), so that a prediction's min and max
// carry the compute's share of the machine's changes, not only the messages'.
//
// Timed on the wall clock: a program's run time is wall time, and a guest's thread CPU clock
// leaves out what the host took from it, which is part of what varies.
namespace augur::bench {

inline constexpr unsigned long kComputeProbeSteps = 1ul << 16;

// Seconds of one compute step over a block of kComputeProbeSteps. No MPI: every rank runs it at
// the same time, as a program's ranks compute side by side.
double probe_compute_speed();

}  // namespace augur::bench
