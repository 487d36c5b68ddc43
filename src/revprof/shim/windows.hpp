#pragma once
// The windows of one-sided communication the shim follows: each keeps a communicator of its
// own over the window's group (tracked, with its shadow, comms.hpp), on which a fence's members
// exchange their start times, and the epoch of transfers still to complete (rma_epoch.hpp).
#include <mpi.h>

#include <vector>

#include "revprof/rma_epoch.hpp"
#include "revprof/shim/comms.hpp"

namespace augur::revprof {

struct Window {
  MPI_Comm comm = MPI_COMM_NULL;  // the shim's duplicate of the communicator it was made on
  RmaEpoch epoch;
  std::vector<int> access;    // the targets of this rank's MPI_Win_start, ranks in `comm`
  std::vector<int> exposure;  // the origins of this rank's MPI_Win_post
};

// Collective over `comm`, after the real window creation succeeded.
void track_window(MPI_Win win, MPI_Comm comm);
// The window, or nullptr for one the shim does not follow (made before MPI_Init's wrapper, on
// an intercommunicator, or through a call the shim does not wrap).
Window* window_of(MPI_Win win);
const Shadow* shadow_of(const Window& w);
// The ranks in the window's communicator of `group`'s members (a group of the window's).
std::vector<int> ranks_in(const Window& w, MPI_Group group);
// Before the program's MPI_Win_free, which is collective, as the duplicate's free is.
void forget_window(MPI_Win win);

}  // namespace augur::revprof
