#pragma once
// Point-to-point in virtual time: the two halves of a send and of a receive, shared by the
// blocking calls, the non-blocking ones and persistent requests.
#include <mpi.h>

#include <memory>

#include "revprof/shim/comms.hpp"
#include "revprof/shim/envelope.hpp"
#include "revprof/shim/stamps.hpp"
#include "timing/rules.hpp"

namespace augur::revprof {

struct SendRecord {
  const Shadow* shadow = nullptr;  // nullptr: MPI_PROC_NULL or an untracked communicator
  timing::SendMode mode = timing::SendMode::standard;
  MPI_Count bytes = 0;
  int dest = 0, tag = 0;
  Times start;
  Times leaves;  // when the message leaves: start, or later while the link carries earlier ones
  Header header;
  std::unique_ptr<PostTimeReceipt> receipt;  // set when the send waits for its receiver
  Envelope envelope;  // empty: the message goes out as the program gave it
  Wire plain;         // the program's own buffer, count and datatype
  Wire wire() const { return envelope.empty() ? plain : envelope.wire(); }
};

struct ReceiveRecord {
  const Shadow* shadow = nullptr;
  Times post;
  bool stamped = false;  // the stamp has been collected (and the post time sent back if asked)
  Stamp stamp;
  // Set with the stamp: the end by the halves' rule alone, and with a crossing send's floor.
  Times halves_end, end;
  MPI_Count bytes = 0;
  int source = MPI_PROC_NULL;
  std::uint8_t wildcard = 0;  // trace::kAnySource, kAnyTag: what the program left for MPI to match
  Envelope own;              // empty: the message arrives as the program asked for it
  Envelope* kept = nullptr;  // a persistent receive's envelope, kept by its request across starts
  Wire plain;
  Envelope& envelope() { return kept ? *kept : own; }
  Wire wire() { return envelope().empty() ? plain : envelope().wire(); }
};

// Where the header of a send travels: in an envelope around the program's buffer, in one holding
// a copy of the data (the program may reuse its buffer before the message leaves), or in one
// the caller keeps (persistent sends, whose envelope outlives each start).
enum class Carry { in_place, own_copy, kept };

// The shadow of `comm` when the shim follows a message with these arguments in virtual time:
// a tracked communicator, a real peer, and arguments MPI accepts. Otherwise nullptr, and the
// real call gets the program's own arguments, without an envelope, so an erroneous call fails
// as it fails without the shim.
const Shadow* followed_send(MPI_Comm comm, int count, MPI_Datatype type, int dest, int tag);
const Shadow* followed_receive(MPI_Comm comm, int count, MPI_Datatype type, int source, int tag);
// Whether the shim follows either half of a sendrecv_replace (one buffer, so one count and type).
inline bool followed_either(MPI_Comm comm, int count, MPI_Datatype type, int dest, int sendtag, int source,
                            int recvtag) {
  return followed_send(comm, count, type, dest, sendtag) || followed_receive(comm, count, type, source, recvtag);
}

// Stamps the message's header (and posts the receipt of a rendezvous); call just before the
// data goes out, and send `wire()`.
SendRecord begin_send(timing::SendMode mode, const void* buf, int count, MPI_Datatype type, int dest, int tag,
                      MPI_Comm comm, const Times& start, Carry carry = Carry::in_place);
// Virtual time the send completes; `waiting` is set to the part spent waiting for the receiver.
Times end_send(SendRecord& send, Times& waiting);

// Receive into `wire()`; `with_envelope` false leaves the envelope to the caller (`kept`).
ReceiveRecord begin_receive(MPI_Comm comm, void* buf, int count, MPI_Datatype type, int source, int tag,
                            const Times& post, bool with_envelope = true);
// For a completed receive described by `status`: opens the envelope (the program's data and
// status count as without the shim) and collects the stamp. Safe to call again on a later
// status of the same receive.
void take_stamp(ReceiveRecord& recv, MPI_Status& status);
Times end_receive(ReceiveRecord& recv, MPI_Status& status, Times& waiting);

}  // namespace augur::revprof
