#pragma once
// The virtual times that travel beside the program's messages: the sender's start time (the
// stamp), which rides in the message's header (envelope.hpp), and, for a send that waits for
// its receiver, the receiver's post time, sent back on the shadow communicator. Each is one time
// per clock (revprof/bounds.hpp). Nothing here
// changes what the program sends or receives.
#include <mpi.h>

#include <optional>

#include "revprof/shim/comms.hpp"

namespace augur::revprof {

struct Stamp {
  Times send_start;
  bool rendezvous = false;  // the sender waits for the receiver's post time
};

void send_post_time(const Shadow& s, int dest, int tag, const Times& post);

// The sender's side of a rendezvous: posted before the data is sent, collected after.
class PostTimeReceipt {
 public:
  PostTimeReceipt(const Shadow& s, int dest, int tag);
  // Waits at most `limit` real seconds, meanwhile serving this rank's own receivers so that
  // two ranks waiting on each other both make progress. Empty if the receiver has not yet
  // reached its receive; the pending receipt is then kept so later ones stay in order.
  std::optional<Times> collect(double limit);

 private:
  MPI_Request request_ = MPI_REQUEST_NULL;
  Times* post_ = nullptr;
};

// Completes finished post-time messages; `final` waits (bounded) and cancels the rest.
void settle_outgoing(bool final);

}  // namespace augur::revprof
