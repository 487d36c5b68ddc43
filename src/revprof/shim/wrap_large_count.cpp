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

}  // namespace

extern "C" {

int MPI_Send_c(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  IntCount n(count, type);
  return MPI_Send(buf, n.count(), n.type(), dest, tag, comm);
}

int MPI_Ssend_c(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  IntCount n(count, type);
  return MPI_Ssend(buf, n.count(), n.type(), dest, tag, comm);
}

int MPI_Rsend_c(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  IntCount n(count, type);
  return MPI_Rsend(buf, n.count(), n.type(), dest, tag, comm);
}

int MPI_Bsend_c(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  IntCount n(count, type);
  return MPI_Bsend(buf, n.count(), n.type(), dest, tag, comm);
}

int MPI_Recv_c(void* buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
               MPI_Status* status) {
  IntCount n(count, type);
  return MPI_Recv(buf, n.count(), n.type(), source, tag, comm, status);
}

int MPI_Sendrecv_c(const void* sbuf, MPI_Count scount, MPI_Datatype stype, int dest, int stag, void* rbuf,
                   MPI_Count rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm, MPI_Status* status) {
  IntCount s(scount, stype), r(rcount, rtype);
  return MPI_Sendrecv(sbuf, s.count(), s.type(), dest, stag, rbuf, r.count(), r.type(), source, rtag, comm, status);
}

int MPI_Sendrecv_replace_c(void* buf, MPI_Count count, MPI_Datatype type, int dest, int stag, int source, int rtag,
                           MPI_Comm comm, MPI_Status* status) {
  IntCount n(count, type);
  return MPI_Sendrecv_replace(buf, n.count(), n.type(), dest, stag, source, rtag, comm, status);
}

int MPI_Mrecv_c(void* buf, MPI_Count count, MPI_Datatype type, MPI_Message* message, MPI_Status* status) {
  IntCount n(count, type);
  return MPI_Mrecv(buf, n.count(), n.type(), message, status);
}

int MPI_Imrecv_c(void* buf, MPI_Count count, MPI_Datatype type, MPI_Message* message, MPI_Request* request) {
  IntCount n(count, type);
  const int rc = MPI_Imrecv(buf, n.count(), n.type(), message, request);
  n.hand_to(*request);
  return rc;
}

int MPI_Isend_c(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                MPI_Request* request) {
  IntCount n(count, type);
  const int rc = MPI_Isend(buf, n.count(), n.type(), dest, tag, comm, request);
  n.hand_to(*request);
  return rc;
}

int MPI_Issend_c(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                 MPI_Request* request) {
  IntCount n(count, type);
  const int rc = MPI_Issend(buf, n.count(), n.type(), dest, tag, comm, request);
  n.hand_to(*request);
  return rc;
}

int MPI_Irsend_c(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                 MPI_Request* request) {
  IntCount n(count, type);
  const int rc = MPI_Irsend(buf, n.count(), n.type(), dest, tag, comm, request);
  n.hand_to(*request);
  return rc;
}

int MPI_Ibsend_c(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                 MPI_Request* request) {
  IntCount n(count, type);
  const int rc = MPI_Ibsend(buf, n.count(), n.type(), dest, tag, comm, request);
  n.hand_to(*request);
  return rc;
}

int MPI_Irecv_c(void* buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                MPI_Request* request) {
  IntCount n(count, type);
  const int rc = MPI_Irecv(buf, n.count(), n.type(), source, tag, comm, request);
  n.hand_to(*request);
  return rc;
}

int MPI_Send_init_c(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                    MPI_Request* request) {
  IntCount n(count, type);
  const int rc = MPI_Send_init(buf, n.count(), n.type(), dest, tag, comm, request);
  n.hand_to(*request);
  return rc;
}

int MPI_Ssend_init_c(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                     MPI_Request* request) {
  IntCount n(count, type);
  const int rc = MPI_Ssend_init(buf, n.count(), n.type(), dest, tag, comm, request);
  n.hand_to(*request);
  return rc;
}

int MPI_Rsend_init_c(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                     MPI_Request* request) {
  IntCount n(count, type);
  const int rc = MPI_Rsend_init(buf, n.count(), n.type(), dest, tag, comm, request);
  n.hand_to(*request);
  return rc;
}

int MPI_Bsend_init_c(const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                     MPI_Request* request) {
  IntCount n(count, type);
  const int rc = MPI_Bsend_init(buf, n.count(), n.type(), dest, tag, comm, request);
  n.hand_to(*request);
  return rc;
}

int MPI_Recv_init_c(void* buf, MPI_Count count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                    MPI_Request* request) {
  IntCount n(count, type);
  const int rc = MPI_Recv_init(buf, n.count(), n.type(), source, tag, comm, request);
  n.hand_to(*request);
  return rc;
}

int MPI_Isendrecv_c(const void* sbuf, MPI_Count scount, MPI_Datatype stype, int dest, int stag, void* rbuf,
                    MPI_Count rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm, MPI_Request* request) {
  IntCount s(scount, stype), r(rcount, rtype);
  const int rc =
      MPI_Isendrecv(sbuf, s.count(), s.type(), dest, stag, rbuf, r.count(), r.type(), source, rtag, comm, request);
  s.hand_to(*request);
  r.hand_to(*request);
  return rc;
}

int MPI_Isendrecv_replace_c(void* buf, MPI_Count count, MPI_Datatype type, int dest, int stag, int source, int rtag,
                            MPI_Comm comm, MPI_Request* request) {
  IntCount n(count, type);
  const int rc = MPI_Isendrecv_replace(buf, n.count(), n.type(), dest, stag, source, rtag, comm, request);
  n.hand_to(*request);
  return rc;
}

}  // extern "C"
#endif  // MPI_VERSION >= 4
