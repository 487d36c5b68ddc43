#pragma once
// Requests the shim follows: non-blocking and persistent point-to-point operations and
// non-blocking collectives, keyed by the MPI_Request handle the program holds. Their virtual
// completion is settled when the program's Wait or Test sees them complete.
#include <mpi.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "revprof/shim/p2p.hpp"

namespace augur::revprof {

class Call;

struct CollectiveRecord {
  // What the members exchange, maxima over them: the start and the root's start on each clock,
  // and the bytes.
  struct Starts {
    Times start, root;
    double bytes = 0;
  };
  static_assert(sizeof(Starts) == 7 * sizeof(double), "exchanged as seven doubles");
  std::string_view op;
  const Shadow* shadow = nullptr;
  bool is_root = false;
  Times start;
  Starts mine, all;
  MPI_Request exchange = MPI_REQUEST_NULL;
};

struct PersistentArgs {
  const void* buf = nullptr;
  int count = 0;
  MPI_Datatype type = MPI_BYTE;
  int peer = 0, tag = 0;
  MPI_Comm comm = MPI_COMM_NULL;
  timing::SendMode mode = timing::SendMode::standard;
};

// A datatype the shim made for a request (a large count's, wrap_large_count.cpp), freed with
// the request: the shim reads the request's datatype again when it completes.
class OwnedType {
 public:
  explicit OwnedType(MPI_Datatype type) : type_(type) {}
  OwnedType(OwnedType&& other) noexcept : type_(std::exchange(other.type_, MPI_DATATYPE_NULL)) {}
  OwnedType& operator=(OwnedType&& other) noexcept {
    std::swap(type_, other.type_);
    return *this;
  }
  ~OwnedType();

 private:
  MPI_Datatype type_;
};

// The trace's request ids of what one MPI request completes: two for an MPI_Isendrecv, whose
// send and receive the trace records as an MPI_Isend's and an MPI_Irecv's; -1: none.
using TraceIds = std::array<std::int64_t, 2>;

struct TrackedRequest {
  // `exchange`: MPI_Isendrecv, a send and a receive under one request; `one_sided`: MPI_Rput,
  // MPI_Rget and their kin, done at `begin`.
  enum class Kind { send, receive, collective, exchange, one_sided } kind = Kind::send;
  std::string_view op;  // the operation name charged at completion
  TraceIds trace_ids{-1, -1};  // its ids in the trace's request records; -1: none written
  Times begin;  // an exchange's call began here, where its sendrecv floor counts from; a
                // one-sided request's transfer is done here
  std::vector<OwnedType> owned_types;
  bool persistent = false;
  bool active = true;
  PersistentArgs args;
  Envelope kept;  // a persistent request's envelope, made once at its creation
  SendRecord send;
  ReceiveRecord receive;
  CollectiveRecord collective;
};

inline bool has_receive(const TrackedRequest& r) {
  return r.kind == TrackedRequest::Kind::receive || r.kind == TrackedRequest::Kind::exchange;
}

TrackedRequest& track_request(MPI_Request handle, TrackedRequest request);
// Numbers a request made by a traced non-blocking call that began at `begin`, and writes the
// trace's request record, so a replay knows which request each Wait completes.
void trace_request(TrackedRequest& request, const Times& begin);
// The oldest request the shim follows under `handle` (MPI may give several one handle), and
// forgetting that one.
TrackedRequest* find_request(MPI_Request handle);
void drop_request(MPI_Request handle);

// Settles a request the program has seen complete (its handle before MPI reset it). Returns the
// virtual completion time, or nothing for a request the shim does not follow.
// `status` is corrected in place: a receive's count is the program's data alone; `trace_ids`
// are the request's ids in the trace's request records.
std::optional<Times> settle(MPI_Request handle, MPI_Status& status, Times& waiting, double& bytes,
                            TraceIds& trace_ids);

// A request the program let go of (MPI_Request_free) or never saw (the shim's own copy of a
// buffered send) while its envelope is still in use: completed in the background, its
// envelope opened (a receive's data reaches the program's buffer) and then released.
bool holds_envelope(TrackedRequest& request);

// Whether a request the shim follows (the program's or one it adopted) still refers to `shadow`.
bool refers_to(const Shadow& shadow);

// For a receive MPI_Request_get_status found complete: opens its envelope so the status counts
// the program's data alone; the request stays the program's to complete.
void open_completed_receive(MPI_Request handle, MPI_Status& status);
void adopt(MPI_Request handle, TrackedRequest request, bool buffered = false);
// A buffered send completes locally whatever the receiver does. The shim sends its own copy of
// the data (with the header) and adopts that request, so the program's attached buffer, sized
// for its data alone, is never asked for the header's bytes. `timing` receives the send's
// record; a non-blocking caller hands the program a request to MPI_PROC_NULL, which MPI
// completes at once.
int buffered_send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                  const Times& start, SendRecord& timing);

// Completes what it can of the adopted requests; `final` waits for every send and, bounded, for
// the receives, and cancels the receives left.
void tend_adopted(bool final);
// The size of the buffer the program attached for buffered sends (0: none), against which the
// shim's copies are counted so a program gets MPI_ERR_BUFFER where it would without the shim.
void note_buffer_attached(int bytes);
// What MPI_Buffer_detach waits for: every buffered send made so far has left.
void wait_for_buffered_sends();

// Collects stamps of receives that completed but that the program has not waited for yet, so
// senders waiting for this rank's post times are not held up.
void serve_pending_receives();

// Starts the exchange of start times for a collective, from `mine`.
// This member's record of a collective over `s`: `root` is -1 for collectives without one.
CollectiveRecord make_record(std::string_view op, const Shadow& s, int root, const Times& start, double bytes);
void exchange_starts(CollectiveRecord& c, bool blocking);
Times collective_finish(const CollectiveRecord& c, Times& waiting);
void trace_collective(const CollectiveRecord& c, const Times& end, int root);
// Ends `call` as a blocking collective over `s` without a root or data, begun at `start` and
// priced as `op` (a communicator's or a window's making, a fence); `traced`: in the trace too.
void finish_synchronising(Call& call, std::string_view op, const Shadow& s, const Times& start, bool traced);

}  // namespace augur::revprof
