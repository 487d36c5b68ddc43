#pragma once
// The machine's state around each point. A virtual machine's processors can be moved by the
// host between places that are close and places that are far apart: on a 2-vCPU guest of this
// kind, an 8-byte ping-pong took 0.12–0.18 µs for spells of 5–35 s and 0.34–0.50 µs for the
// spells between, with nothing in between. A short ping-pong before and after each point says
// which state the point was measured in, so the fit can tell the states apart, count them in the
// model and report them (fit/machine_state.hpp, model/machine_states.hpp).
namespace augur::bench {

// Collective over MPI_COMM_WORLD: world ranks 0 and 1 exchange a few 8-byte messages. Returns,
// on world rank 0, the fastest block's half round trip in seconds; 0 elsewhere and on one rank.
double probe_machine_state();

}  // namespace augur::bench
