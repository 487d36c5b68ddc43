#pragma once
// Shadow communicators. Every user communicator the shim knows gets two private duplicates: one
// carries the collectives' exchange of start times, the other a receiver's post time back to a
// sender that waits for it. Being duplicates, they never match the program's own messages, and
// mirroring the data's (source, tag) keeps MPI's non-overtaking order, so post times pair with
// the right sends. (A message's own send time rides in its header: envelope.hpp.)
#include <mpi.h>

#include <vector>

#include "timing/rules.hpp"

namespace augur::revprof {

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
  mutable std::vector<timing::Flight> last_send;
};

// The shadow of `comm`, or nullptr for a communicator the shim does not track (then its calls
// run unchanged and are reported as not modelled).
const Shadow* shadow_of(MPI_Comm comm);

// Collective over `created` (a no-op for MPI_COMM_NULL): duplicates it twice and agrees on an id.
void track(MPI_Comm created);
void forget(MPI_Comm comm);  // before the user's MPI_Comm_free
void forget_all();           // at MPI_Finalize

int world_rank_of(const Shadow& s, int rank);

}  // namespace augur::revprof
