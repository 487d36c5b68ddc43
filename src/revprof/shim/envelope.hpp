#pragma once
// The header every message on a tracked communicator carries in front of the program's data:
// the sender's virtual start time on each of the three clocks (revprof/bounds.hpp) and whether
// the sender waits for the receiver's post time.
// Carrying it inside the data message, rather than as a second message, keeps a latency-bound
// program's message count as it is. What the program receives, and the counts its statuses
// report, stay unchanged:
// - small messages of contiguous types travel through a staging copy (header, then the data),
//   the cheapest form for a message that fits in a cache line or two;
// - the rest travel as a derived datatype that puts the header beside the program's own buffer
//   (absolute addresses from MPI_BOTTOM), so large messages are not copied by the shim.
// Both forms are the same bytes on the wire, so a sender and a receiver may choose differently.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>

#include "revprof/bounds.hpp"

namespace augur::revprof {

struct Header {
  Times send_start;
  double rendezvous = 0;  // 1: the sender waits for the receiver's post time
  // What the receive's status says, for the calls whose status MPI may leave unset (MPICH 4.0
  // sets none for MPI_Isendrecv): the program's data, and the sender's rank and tag.
  double data_bytes = 0;
  std::int32_t source = 0, tag = 0;
};
static_assert(sizeof(Header) == 6 * sizeof(double), "the header is 48 bytes on the wire");

inline constexpr int kHeaderBytes = static_cast<int>(sizeof(Header));

// The arguments the real MPI call gets instead of the program's buffer, count and datatype.
struct Wire {
  const void* buf = nullptr;
  int count = 0;
  MPI_Datatype type = MPI_BYTE;
};

class Envelope {
 public:
  Envelope() = default;
  Envelope(Envelope&& other) noexcept;
  Envelope& operator=(Envelope&& other) noexcept;
  Envelope(const Envelope&) = delete;
  Envelope& operator=(const Envelope&) = delete;
  ~Envelope() {
    if (storage_ || derived_ != MPI_DATATYPE_NULL || span_copy_) release();
  }

  // An envelope around the program's `count` elements of `type` at `buf`, to send or to receive.
  static Envelope around(const void* buf, int count, MPI_Datatype type);
  // An envelope holding its own copy of the data, for a send whose buffer the program may reuse
  // at once (buffered sends) or that shares its buffer with the receive (Sendrecv_replace).
  static Envelope copy_of(const void* buf, int count, MPI_Datatype type, MPI_Comm comm);
  // The same for data MPI_Pack cannot hold (past INT_MAX bytes): a copy of the memory the
  // elements span, sent through the datatype itself.
  static Envelope copy_of_span(const void* buf, int count, MPI_Datatype type);

  bool empty() const { return storage_ == nullptr; }
  Header& header() { return *reinterpret_cast<Header*>(storage_); }
  // Copies the program's data behind the header when the envelope stages it; call when the
  // data is final (a send's start).
  void seal();
  Wire wire() const;

  // After a receive into this envelope completed with `status`: the first call copies staged
  // data to the program's buffer; every call takes the header out of the status's count, so
  // MPI_Get_count reports the program's data alone. Returns false for a cancelled receive.
  bool open(MPI_Status& status);
  // The program's bytes the message brought, once opened.
  MPI_Count data_bytes() const { return received_bytes_; }
  // A persistent receive's envelope serves every start: each message is opened anew.
  void rearm() { opened_ = false; }

 private:
  std::byte* storage_ = nullptr;  // header, then the staged data if staged_
  std::size_t capacity_ = 0;      // bytes of storage_, which returns to the staging pools
  bool staged_ = false;
  bool opened_ = false;
  const void* data_ = nullptr;
  int staged_bytes_ = 0;  // the program's bytes a staged envelope holds (at most the stage limit)
  // The program's bytes the message brought: past INT_MAX for large messages, so counted as
  // MPI_Count and read with MPI_Get_elements_x, never through int.
  MPI_Count received_bytes_ = 0;
  MPI_Datatype derived_ = MPI_DATATYPE_NULL;
  std::unique_ptr<std::byte[]> span_copy_;  // copy_of_span's data, which derived_ points into
  void beside(MPI_Aint data, int count, MPI_Datatype type);
  void release();
};

// Takes the header's bytes out of the count of a probed message's status.
void strip_header_from(MPI_Status& status);

}  // namespace augur::revprof
