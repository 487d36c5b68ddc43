#pragma once
// Point-to-point in virtual time: the two halves of a send and of a receive, shared by the
// blocking calls, the non-blocking ones and persistent requests.
#include <mpi.h>

#include <memory>

#include "revprof/shim/comms.hpp"
#include "revprof/shim/stamps.hpp"
#include "timing/rules.hpp"

namespace augur::revprof {

struct SendRecord {
  const Shadow* shadow = nullptr;  // nullptr: MPI_PROC_NULL or an untracked communicator
  timing::SendMode mode = timing::SendMode::standard;
  double bytes = 0;
  int dest = 0, tag = 0;
  double start = 0;
  std::unique_ptr<PostTimeReceipt> receipt;  // set when the send waits for its receiver
};

struct ReceiveRecord {
  const Shadow* shadow = nullptr;
  MPI_Datatype type = MPI_BYTE;
  double post = 0;
  bool stamped = false;  // the stamp has been collected (and the post time sent back if asked)
  Stamp stamp;
  double bytes = 0;
  int source = MPI_PROC_NULL;
};

// Sends the stamp (and posts the receipt of a rendezvous); call just before the data goes out.
SendRecord begin_send(timing::SendMode mode, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                      double start);
// Virtual time the send completes; `waiting` is set to the part spent waiting for the receiver.
double end_send(SendRecord& send, double& waiting);

ReceiveRecord begin_receive(MPI_Comm comm, MPI_Datatype type, int source, double post);
// Collects the stamp of a completed receive described by `status`; idempotent.
void take_stamp(ReceiveRecord& recv, const MPI_Status& status);
double end_receive(ReceiveRecord& recv, const MPI_Status& status, double& waiting);

}  // namespace augur::revprof
