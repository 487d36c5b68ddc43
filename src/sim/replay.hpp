#pragma once
// Trace replay: a native trace (written by `augur run --trace`, `--measure --trace`, or the
// simulator) turned back into the program that made it. Each rank's states, in time order,
// become operations: compute states become compute (times `compute_scale`), MPI states the call
// they record, with peers, tags and sizes from the send, receive and collective records.
//
// Receives keep the source they matched in the run (the `recorded` form): the trace does not
// say whether the program asked for a wildcard. Waits complete the oldest outstanding requests
// up to the last whose recorded completion is within the wait (the trace does not say which
// requests a wait named). Communicator creation (comm_dup, comm_split, comm_create) leaves no
// collective record and is replayed as a collective over the world. Calls the kernel does not model (probes, persistent-request set-up)
// are left out and counted in `skipped`.
#include <map>
#include <memory>
#include <string>

#include "sim/program.hpp"
#include "trace/trace.hpp"

namespace augur::sim {

struct Replay {
  std::unique_ptr<FlatProgram> program;
  std::map<std::string, long> skipped;  // calls left out, by name
};

Replay replay_program(const trace::Trace& trace, double compute_scale = 1.0);

}  // namespace augur::sim
