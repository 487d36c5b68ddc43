#pragma once
// Shadow communicators. Every user communicator the shim knows gets two private duplicates: one
// carries the collectives' exchange of start times, the other a receiver's post time back to a
// sender that waits for it. Being duplicates, they never match the program's own messages, and
// mirroring the data's (source, tag) keeps MPI's non-overtaking order, so post times pair with
// the right sends. (A message's own send time rides in its header: envelope.hpp.)
#include <mpi.h>

#include <functional>
#include <vector>

#include "revprof/bounds.hpp"

namespace augur::revprof {

// This rank's latest send to one member, on each clock (never sent: -inf).
using SentFlight = timing::BasicFlight<Times>;

struct Shadow {
  MPI_Comm stamps = MPI_COMM_NULL;
  MPI_Comm acks = MPI_COMM_NULL;
  int id = 0;        // the same number on every member, for the trace
  int rank = 0;
  int size = 1;
  std::vector<int> world_rank;  // world rank of each member, for the trace
  // Virtual start and size of this rank's latest send to each member, to tell a message that
  // crossed one of ours (timing/rules.hpp). Bookkeeping of the sends, not of the communicator:
  // mutable.
  mutable std::vector<SentFlight> last_send;
};

// The shadow of `comm`, or nullptr for a communicator the shim does not track (then its calls
// run unchanged and are reported as not modelled).
const Shadow* shadow_of(MPI_Comm comm);

// Collective over `created` (a no-op for MPI_COMM_NULL): duplicates it twice and agrees on an id.
void track(MPI_Comm created);
// Before the user's MPI_Comm_free. A program may free a communicator with operations still
// pending on it (the free takes effect when they complete), and those operations still need its
// shadow: the shadow is retired, no longer found by `shadow_of`, and its duplicates are freed by
// `release_retired` once `in_use` says nothing the shim follows refers to it.
void retire(MPI_Comm comm);
void release_retired(const std::function<bool(const Shadow&)>& in_use);
void forget_all();  // at MPI_Finalize

int world_rank_of(const Shadow& s, int rank);

}  // namespace augur::revprof
