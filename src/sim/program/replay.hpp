#pragma once
// Trace replay: a native trace (written by `augur run --trace`, `--measure --trace`, or the
// simulator) turned back into the program that made it. Each rank's states, in time order,
// become operations: compute states become compute (times `compute_scale`), MPI states the call
// they record, with peers, tags and sizes from the send, receive and collective records.
//
// Wildcard receives (version 2 traces mark them) match in simulated order by default: the
// receive asks for any source (or tag) as the program did, and carries the source (and tag) it
// had in the run, so the kernel can count the matches the simulated order changed. With Match::recorded,
// and for every receive of an older trace, a receive keeps the source it matched in the run.
// Waits complete the requests the trace says they completed (version 2); in older traces, the
// oldest outstanding requests up to the last whose recorded completion is within the wait.
// Communicator creation (comm_dup, comm_split, comm_create) leaves no collective record and is
// replayed as a collective over the world. Calls the kernel does not model (probes,
// persistent-request set-up) are left out and counted in `skipped`.
#include <map>
#include <memory>
#include <string>

#include "sim/program/program.hpp"
#include "trace/trace.hpp"

namespace augur::sim {

struct Replay {
  std::unique_ptr<FlatProgram> program;
  std::map<std::string, long> skipped;  // calls left out, by name
  // Requests (version 2) the trace made and never says a wait completed, towards MPI_PROC_NULL
  // aside: they stay outstanding to the end, and every later wait's set grows by them.
  long never_completed = 0;
};

enum class Match { simulated, recorded };

Replay replay_program(const trace::Trace& trace, double compute_scale = 1.0, Match match = Match::simulated);

}  // namespace augur::sim
