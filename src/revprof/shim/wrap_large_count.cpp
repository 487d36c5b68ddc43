// MPI 4's large-count point-to-point calls (MPI_Send_c …, MPICH 4): each becomes the int-count
// call the shim wraps already, so a message is timed, traced and carries its header however the
// program counted it. A count past INT_MAX becomes one element of a derived datatype made of
// the same elements (same type signature, so it matches a receive counted either way). The
// large-count collectives are priced in wrap_collectives.cpp.
#include <mpi.h>

#if MPI_VERSION >= 4
#include <climits>

#include "revprof/shim/requests.hpp"

namespace {

// The program's `count` elements of `type` as an int count of a datatype. A made datatype is
// freed with this object, after a blocking call; after a non-blocking or persistent one,
// `hand_to` gives it to the request the shim follows, which reads it again at completion.
class IntCount {
 public:
  IntCount(MPI_Count count, MPI_Datatype type) : count_(static_cast<int>(count)), type_(type) {
    if (count > INT_MAX) make(count, type);
  }
  ~IntCount() {
    if (made_ && !kept_) PMPI_Type_free(&type_);
  }
  IntCount(const IntCount&) = delete;
  IntCount& operator=(const IntCount&) = delete;

  int count() const { return count_; }
  MPI_Datatype type() const { return type_; }
  // A request the shim does not follow (an untracked communicator) keeps what it needs: MPI
  // completes a pending operation whose datatype was freed, and a persistent one refers to it.
  void hand_to(MPI_Request request) {
    if (!made_) return;
    if (auto* tracked = augur::revprof::find_request(request)) {
      tracked->owned_types.emplace_back(type_);
      kept_ = true;
    }
  }

 private:
  // Whole chunks of 2^30 elements, then the rest, laid where count elements of `type` lie.
  void make(MPI_Count count, MPI_Datatype type) {
    constexpr MPI_Count kChunk = MPI_Count{1} << 30;
    MPI_Datatype chunk = MPI_DATATYPE_NULL;
    PMPI_Type_contiguous(static_cast<int>(kChunk), type, &chunk);
    MPI_Count lb = 0, extent = 0;
    PMPI_Type_get_extent_x(type, &lb, &extent);
    const int lengths[2] = {static_cast<int>(count / kChunk), static_cast<int>(count % kChunk)};
    const MPI_Aint offsets[2] = {0, static_cast<MPI_Aint>(count / kChunk * kChunk * extent)};
    const MPI_Datatype types[2] = {chunk, type};
    PMPI_Type_create_struct(lengths[1] ? 2 : 1, lengths, offsets, types, &type_);
    PMPI_Type_commit(&type_);
    PMPI_Type_free(&chunk);
    count_ = 1;
    made_ = true;
  }

  int count_;
  MPI_Datatype type_;
  bool made_ = false, kept_ = false;
};

// A non-blocking or persistent call's request takes the datatypes made for it.
template <class... Counts>
void hand_to(MPI_Request request, Counts&... counts) {
  (counts.hand_to(request), ...);
}

}  // namespace

// One row a call: its name without the prefix and `_c`, its C parameters, the IntCounts made
// from its counts, and the arguments of the int-count call; a call with a request also names
// the IntCounts its request keeps.
#define AUGUR_UNPACK(...) __VA_ARGS__
#define AUGUR_LARGE_COUNT(name, params, counts, args) \
  int MPI_##name##_c params {                          \
    IntCount AUGUR_UNPACK counts;                      \
    return MPI_##name args;                            \
  }
#define AUGUR_LARGE_COUNT_REQUEST(name, params, counts, args, kept) \
  int MPI_##name##_c params {                                        \
    IntCount AUGUR_UNPACK counts;                                    \
    const int rc = MPI_##name args;                                  \
    hand_to(*request, AUGUR_UNPACK kept);                            \
    return rc;                                                       \
  }
// The shapes most calls share: a send's (buffer, count, type, peer, tag, communicator) and a
// receive's, with a request or without.
#define AUGUR_SEND_PARAMS (const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
#define AUGUR_SEND_REQUEST_PARAMS \
  (const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request)
#define AUGUR_RECV_REQUEST_PARAMS \
  (void* buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request)
#define AUGUR_SEND(name) \
  AUGUR_LARGE_COUNT(name, AUGUR_SEND_PARAMS, (n(count, type)), (buf, n.count(), n.type(), dest, tag, comm))
#define AUGUR_SEND_REQUEST(name)                                                      \
  AUGUR_LARGE_COUNT_REQUEST(name, AUGUR_SEND_REQUEST_PARAMS, (n(count, type)),        \
                            (buf, n.count(), n.type(), dest, tag, comm, request), (n))
#define AUGUR_RECV_REQUEST(name)                                                      \
  AUGUR_LARGE_COUNT_REQUEST(name, AUGUR_RECV_REQUEST_PARAMS, (n(count, type)),        \
                            (buf, n.count(), n.type(), source, tag, comm, request), (n))

extern "C" {

AUGUR_SEND(Send)
AUGUR_SEND(Ssend)
AUGUR_SEND(Rsend)
AUGUR_SEND(Bsend)
AUGUR_LARGE_COUNT(Recv,
                  (void* buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                   MPI_Status* status),
                  (n(count, type)), (buf, n.count(), n.type(), source, tag, comm, status))
AUGUR_LARGE_COUNT(Sendrecv,
                  (const void* sbuf, MPI_Count scount, MPI_Datatype stype, int dest, int stag, void* rbuf,
                   MPI_Count rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm, MPI_Status* status),
                  (s(scount, stype), r(rcount, rtype)),
                  (sbuf, s.count(), s.type(), dest, stag, rbuf, r.count(), r.type(), source, rtag, comm, status))
AUGUR_LARGE_COUNT(Sendrecv_replace,
                  (void* buf, MPI_Count count, MPI_Datatype type, int dest, int stag, int source, int rtag,
                   MPI_Comm comm, MPI_Status* status),
                  (n(count, type)), (buf, n.count(), n.type(), dest, stag, source, rtag, comm, status))
AUGUR_LARGE_COUNT(Mrecv, (void* buf, MPI_Count count, MPI_Datatype type, MPI_Message* message, MPI_Status* status),
                  (n(count, type)), (buf, n.count(), n.type(), message, status))

AUGUR_LARGE_COUNT_REQUEST(Imrecv,
                          (void* buf, MPI_Count count, MPI_Datatype type, MPI_Message* message,
                           MPI_Request* request),
                          (n(count, type)), (buf, n.count(), n.type(), message, request), (n))
AUGUR_SEND_REQUEST(Isend)
AUGUR_SEND_REQUEST(Issend)
AUGUR_SEND_REQUEST(Irsend)
AUGUR_SEND_REQUEST(Ibsend)
AUGUR_RECV_REQUEST(Irecv)
AUGUR_SEND_REQUEST(Send_init)
AUGUR_SEND_REQUEST(Ssend_init)
AUGUR_SEND_REQUEST(Rsend_init)
AUGUR_SEND_REQUEST(Bsend_init)
AUGUR_RECV_REQUEST(Recv_init)
AUGUR_LARGE_COUNT_REQUEST(Isendrecv,
                          (const void* sbuf, MPI_Count scount, MPI_Datatype stype, int dest, int stag, void* rbuf,
                           MPI_Count rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                           MPI_Request* request),
                          (s(scount, stype), r(rcount, rtype)),
                          (sbuf, s.count(), s.type(), dest, stag, rbuf, r.count(), r.type(), source, rtag, comm,
                           request),
                          (s, r))
AUGUR_LARGE_COUNT_REQUEST(Isendrecv_replace,
                          (void* buf, MPI_Count count, MPI_Datatype type, int dest, int stag, int source, int rtag,
                           MPI_Comm comm, MPI_Request* request),
                          (n(count, type)), (buf, n.count(), n.type(), dest, stag, source, rtag, comm, request), (n))

}  // extern "C"
#endif  // MPI_VERSION >= 4
