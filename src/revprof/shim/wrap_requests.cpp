// Non-blocking and persistent point-to-point, and every Wait/Test: a request's virtual
// completion is settled when the program sees it complete.
#include <mpi.h>
#include <sched.h>

#include <algorithm>
#include <vector>

#include "revprof/shim/requests.hpp"
#include "revprof/shim/runtime.hpp"
#include "revprof/shim/statuses.hpp"

using namespace augur::revprof;
using augur::timing::SendMode;

namespace {

template <class RealIsend>
int nonblocking_send(std::string_view op, SendMode mode, const void* buf, int count, MPI_Datatype type, int dest,
                     int tag, MPI_Comm comm, MPI_Request* request, RealIsend real) {
  return intercept("isend1", [&] { return real(Wire{buf, count, type}); }, [&](Call& call) {
    tend_adopted(false);
    TrackedRequest r;
    r.kind = TrackedRequest::Kind::send;
    r.op = op;
    int rc = MPI_SUCCESS;
    if (mode == SendMode::buffered) {
      rc = call.real([&] {
        int sent = buffered_send(buf, count, type, dest, tag, comm, call.begin(), r.send);
        PMPI_Isend(nullptr, 0, MPI_BYTE, MPI_PROC_NULL, tag, comm, request);
        return sent;
      });
    } else {
      r.send = begin_send(mode, buf, count, type, dest, tag, comm, call.begin());
      rc = call.real([&] { return real(r.send.wire()); });
    }
    const MPI_Count bytes = r.send.bytes;
    const auto& rules = rules_with(r.send.shadow, dest);
    trace_request(r, call.begin());
    track_request(*request, std::move(r));
    // MPI returns at once for MPI_PROC_NULL (a stencil's edge): no message, no cost.
    const Times post = dest == MPI_PROC_NULL ? Times{} : rules.isend_post(bytes);
    call.finish(call.begin() + post, {}, 0);
    return rc;
  });
}

#if MPI_VERSION >= 4
// MPI_Isendrecv: one request for a send and a receive, their messages carrying the header as
// an MPI_Isend's and an MPI_Irecv's do; posting costs both posts and the wait ends it as
// MPI_Sendrecv ends. MPI_Isendrecv_replace sends the shim's copy of the buffer (Carry::own_copy).
int nonblocking_exchange(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                         int sendtag, void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                         MPI_Comm comm, MPI_Request* request, Carry carry) {
  tend_adopted(false);
  TrackedRequest r;
  r.kind = TrackedRequest::Kind::exchange;
  r.op = "isendrecv";
  r.begin = call.begin();
  r.send = begin_send(SendMode::buffered, sendbuf, sendcount, sendtype, dest, sendtag, comm, call.begin(), carry);
  r.receive = begin_receive(comm, recvbuf, recvcount, recvtype, source, recvtag, call.begin());
  const Wire out = r.send.wire(), in = r.receive.wire();
  int rc = call.real([&] {
    return PMPI_Isendrecv(out.buf, out.count, out.type, dest, sendtag, const_cast<void*>(in.buf), in.count, in.type,
                          source, recvtag, comm, request);
  });
  Times post;
  if (dest != MPI_PROC_NULL) post = post + rules_with(r.send.shadow, dest).isend_post(r.send.bytes);
  if (source != MPI_PROC_NULL) post = post + rules_with(r.receive.shadow, source).irecv_post(message_bytes(recvcount, recvtype));
  trace_request(r, call.begin());
  track_request(*request, std::move(r));
  call.finish(call.begin() + post, {}, 0);
  return rc;
}
#endif

// A persistent buffered send on a tracked communicator sends a fresh copy at every start.
bool copies_at_start(bool is_receive, SendMode mode, int peer, MPI_Comm comm) {
  return !is_receive && mode == SendMode::buffered && peer != MPI_PROC_NULL && shadow_of(comm);
}

template <class RealInit>
int persistent_init(SendMode mode, bool is_receive, const void* buf, int count, MPI_Datatype type, int peer, int tag,
                    MPI_Comm comm, MPI_Request* request, RealInit real) {
  auto plain = [&] { return real(Wire{buf, count, type}, peer); };
  return intercept(is_receive ? "recv_init" : "send_init", plain, [&](Call& call) {
    TrackedRequest r;
    r.kind = is_receive ? TrackedRequest::Kind::receive : TrackedRequest::Kind::send;
    r.op = is_receive ? "irecv2" : "isend2";
    r.persistent = true;
    r.active = false;
    r.args = {buf, count, type, peer, tag, comm, mode};
    // A copied buffered send's data leaves at each start (buffered_send); MPI's own request
    // then only stands for it, towards MPI_PROC_NULL. Any other persistent request on a tracked
    // communicator keeps one envelope, made here, across its starts.
    const bool copies = copies_at_start(is_receive, mode, peer, comm);
    const bool followed =
        is_receive ? followed_receive(comm, count, type, peer, tag) : followed_send(comm, count, type, peer, tag);
    if (followed && !copies) r.kept = Envelope::around(buf, count, type);
    int rc = call.real([&] {
      return real(r.kept.empty() ? Wire{buf, count, type} : r.kept.wire(), copies ? MPI_PROC_NULL : peer);
    });
    track_request(*request, std::move(r));
    return rc;
  });
}

void start_persistent(MPI_Request handle, const Times& now) {
  auto* r = find_request(handle);
  if (!r || !r->persistent) return;
  const auto& a = r->args;
  if (r->kind == TrackedRequest::Kind::receive) {
    r->receive = begin_receive(a.comm, const_cast<void*>(a.buf), a.count, a.type, a.peer, a.tag, now, false);
    if (!r->kept.empty()) {
      r->kept.rearm();
      r->receive.kept = &r->kept;
    }
  } else if (copies_at_start(false, a.mode, a.peer, a.comm)) {
    buffered_send(a.buf, a.count, a.type, a.peer, a.tag, a.comm, now, r->send);
  } else {
    r->send = begin_send(a.mode, a.buf, a.count, a.type, a.peer, a.tag, a.comm, now, Carry::kept);
    if (!r->kept.empty()) {
      r->kept.header() = r->send.header;
      r->kept.seal();
    }
  }
  r->active = true;
}

// Settles the `completed` requests at `indices` (of the handles as they were before the call),
// whose statuses are statuses[0 .. completed), and ends the call at the latest completion.
// `rc` is the real call's: with MPI_ERR_IN_STATUS, a request whose status says MPI_ERR_PENDING
// has not completed (MPICH stops a Waitall at the first error) and stays the program's to wait for.
void settle_completed(Call& call, const MPI_Request* before, const int* indices, int completed,
                      MPI_Status* statuses, int rc = MPI_SUCCESS) {
  Times end = call.begin();
  double bytes = 0;
  for (int k = 0; k < completed; ++k) {
    if (rc == MPI_ERR_IN_STATUS && statuses[k].MPI_ERROR == MPI_ERR_PENDING) continue;
    Times w;
    double b = 0;
    TraceIds trace_ids{-1, -1};
    if (auto done = settle(before[indices[k]], statuses[k], w, b, trace_ids)) {
      end = later(end, *done);
      bytes += b;
      for (const auto id : trace_ids)
        if (id >= 0 && call.modelled())
          to_trace([&](augur::trace::RankWriter& t) { t.complete(shown(call.begin()), static_cast<std::uint32_t>(id)); });
    }
  }
  const Times waiting = end - call.begin();
  if (call.modelled()) call.finish(end, waiting, bytes);
}

// With threads calling at once (MPI_THREAD_MULTIPLE) a blocking Wait becomes its Test, polled
// with the shim's lock given up between polls and kept from the poll that completes to the
// settling (Call::real_holding). `test(done)` returns the Test's result and sets `done`.
template <class Test>
int poll_until_done(Test test) {
  while (true) {
    int done = 0;
    const int rc = test(done);
    if (done || rc != MPI_SUCCESS) return rc;
    ShimUnlocked pause;
    sched_yield();
  }
}

template <class Wait, class Test>
int wait_or_poll(Call& call, Wait wait, Test test) {
  if (!runtime().threaded) return call.real(wait);
  return call.real_holding([&] { return poll_until_done(test); });
}

// The single-request calls keep their copies on the stack: they are the hot path.
constexpr int kFirst = 0;

std::vector<int> all_indices(int n) {
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i) v[i] = i;
  return v;
}

}  // namespace

extern "C" {

int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return nonblocking_send("isend2", SendMode::standard, buf, count, type, dest, tag, comm, request, [&](const Wire& w) {
    return PMPI_Isend(w.buf, w.count, w.type, dest, tag, comm, request);
  });
}

int MPI_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return nonblocking_send("isend2", SendMode::synchronous, buf, count, type, dest, tag, comm, request, [&](const Wire& w) {
    return PMPI_Issend(w.buf, w.count, w.type, dest, tag, comm, request);
  });
}

int MPI_Irsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return nonblocking_send("isend2", SendMode::ready, buf, count, type, dest, tag, comm, request, [&](const Wire& w) {
    return PMPI_Irsend(w.buf, w.count, w.type, dest, tag, comm, request);
  });
}

int MPI_Ibsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return nonblocking_send("isend2", SendMode::buffered, buf, count, type, dest, tag, comm, request, [&](const Wire& w) {
    return PMPI_Ibsend(w.buf, w.count, w.type, dest, tag, comm, request);
  });
}

int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request) {
  return intercept("irecv1", [&] { return PMPI_Irecv(buf, count, type, source, tag, comm, request); }, [&](Call& call) {
    tend_adopted(false);
    TrackedRequest r;
    r.kind = TrackedRequest::Kind::receive;
    r.op = "irecv2";
    r.receive = begin_receive(comm, buf, count, type, source, tag, call.begin());
    const Wire w = r.receive.wire();
    int rc = call.real([&] { return PMPI_Irecv(const_cast<void*>(w.buf), w.count, w.type, source, tag, comm, request); });
    trace_request(r, call.begin());
    track_request(*request, std::move(r));
    const MPI_Count bytes = message_bytes(count, type);
    const Times post = source == MPI_PROC_NULL ? Times{} : rules_with(shadow_of(comm), source).irecv_post(bytes);
    call.finish(call.begin() + post, {}, 0);
    return rc;
  });
}

#if MPI_VERSION >= 4
int MPI_Isendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Request* request) {
  auto plain = [&] {
    return PMPI_Isendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                          comm, request);
  };
  return intercept("isendrecv", plain, [&](Call& call) {
    return nonblocking_exchange(call, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                                source, recvtag, comm, request, Carry::in_place);
  });
}

int MPI_Isendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag, int source, int recvtag,
                          MPI_Comm comm, MPI_Request* request) {
  auto plain = [&] { return PMPI_Isendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, request); };
  return intercept("isendrecv", plain, [&](Call& call) {
    // With neither half followed no header travels: the real call, as MPI_Sendrecv_replace's.
    if (!followed_either(comm, count, type, dest, sendtag, source, recvtag)) return call.real(plain);
    return nonblocking_exchange(call, buf, count, type, dest, sendtag, buf, count, type, source, recvtag, comm,
                                request, Carry::own_copy);
  });
}
#endif

int MPI_Send_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return persistent_init(SendMode::standard, false, buf, count, type, dest, tag, comm, request, [&](const Wire& w, int peer) {
    return PMPI_Send_init(w.buf, w.count, w.type, peer, tag, comm, request);
  });
}

int MPI_Ssend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return persistent_init(SendMode::synchronous, false, buf, count, type, dest, tag, comm, request, [&](const Wire& w, int peer) {
    return PMPI_Ssend_init(w.buf, w.count, w.type, peer, tag, comm, request);
  });
}

int MPI_Rsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return persistent_init(SendMode::ready, false, buf, count, type, dest, tag, comm, request, [&](const Wire& w, int peer) {
    return PMPI_Rsend_init(w.buf, w.count, w.type, peer, tag, comm, request);
  });
}

int MPI_Bsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request) {
  return persistent_init(SendMode::buffered, false, buf, count, type, dest, tag, comm, request, [&](const Wire& w, int peer) {
    return PMPI_Bsend_init(w.buf, w.count, w.type, peer, tag, comm, request);
  });
}

int MPI_Recv_init(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request) {
  return persistent_init(SendMode::standard, true, buf, count, type, source, tag, comm, request, [&](const Wire& w, int peer) {
    return PMPI_Recv_init(const_cast<void*>(w.buf), w.count, w.type, peer, tag, comm, request);
  });
}

int MPI_Start(MPI_Request* request) {
  auto plain = [&] { return PMPI_Start(request); };
  return intercept("start", plain, [&](Call& call) {
    start_persistent(*request, call.begin());
    return call.real(plain);
  });
}

int MPI_Startall(int count, MPI_Request requests[]) {
  auto plain = [&] { return PMPI_Startall(count, requests); };
  return intercept("start", plain, [&](Call& call) {
    for (int i = 0; i < count; ++i) start_persistent(requests[i], call.begin());
    return call.real(plain);
  });
}

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  return intercept_completion("wait", [&] { return PMPI_Wait(request, status); }, [&](Call& call) {
    const MPI_Request before = *request;
    StatusOut out(status);
    int rc = wait_or_poll(call, [&] { return PMPI_Wait(request, out.get()); },
                          [&](int& done) { return PMPI_Test(request, &done, out.get()); });
    settle_completed(call, &before, &kFirst, 1, out.get());
    return rc;
  });
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  return intercept_completion("wait", [&] { return PMPI_Waitall(count, requests, statuses); }, [&](Call& call) {
    std::vector<MPI_Request> before(requests, requests + count);
    StatusesOut out(statuses, count);
    int rc = wait_or_poll(call, [&] { return PMPI_Waitall(count, requests, out.get()); },
                          [&](int& done) { return PMPI_Testall(count, requests, &done, out.get()); });
    auto indices = all_indices(count);
    settle_completed(call, before.data(), indices.data(), count, out.get(), rc);
    return rc;
  });
}

int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  return intercept_completion("wait", [&] { return PMPI_Waitany(count, requests, index, status); }, [&](Call& call) {
    std::vector<MPI_Request> before(requests, requests + count);
    StatusOut out(status);
    int rc = wait_or_poll(call, [&] { return PMPI_Waitany(count, requests, index, out.get()); },
                          [&](int& done) { return PMPI_Testany(count, requests, index, &done, out.get()); });
    if (*index != MPI_UNDEFINED) settle_completed(call, before.data(), index, 1, out.get());
    return rc;
  });
}

int MPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  auto plain = [&] { return PMPI_Waitsome(incount, requests, outcount, indices, statuses); };
  return intercept_completion("wait", plain, [&](Call& call) {
    std::vector<MPI_Request> before(requests, requests + incount);
    StatusesOut out(statuses, incount);
    int rc = wait_or_poll(call, [&] { return PMPI_Waitsome(incount, requests, outcount, indices, out.get()); },
                          [&](int& done) {
                            const int tested = PMPI_Testsome(incount, requests, outcount, indices, out.get());
                            done = *outcount != 0;
                            return tested;
                          });
    if (*outcount != MPI_UNDEFINED) settle_completed(call, before.data(), indices, *outcount, out.get());
    return rc;
  });
}

int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  return intercept_completion("test", [&] { return PMPI_Test(request, flag, status); }, [&](Call& call) {
    const MPI_Request before = *request;
    StatusOut out(status);
    int rc = call.real_holding([&] { return PMPI_Test(request, flag, out.get()); });
    if (*flag)
      settle_completed(call, &before, &kFirst, 1, out.get());
    else
      finish_poll(call, Poll::test);
    return rc;
  });
}

int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  return intercept_completion("test", [&] { return PMPI_Testall(count, requests, flag, statuses); }, [&](Call& call) {
    std::vector<MPI_Request> before(requests, requests + count);
    StatusesOut out(statuses, count);
    int rc = call.real_holding([&] { return PMPI_Testall(count, requests, flag, out.get()); });
    if (*flag) {
      auto indices = all_indices(count);
      settle_completed(call, before.data(), indices.data(), count, out.get(), rc);
    } else {
      finish_poll(call, Poll::test);
    }
    return rc;
  });
}

int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  auto plain = [&] { return PMPI_Testany(count, requests, index, flag, status); };
  return intercept_completion("test", plain, [&](Call& call) {
    std::vector<MPI_Request> before(requests, requests + count);
    StatusOut out(status);
    int rc = call.real_holding([&] { return PMPI_Testany(count, requests, index, flag, out.get()); });
    if (*flag && *index != MPI_UNDEFINED)
      settle_completed(call, before.data(), index, 1, out.get());
    else if (!*flag)
      finish_poll(call, Poll::test);
    return rc;
  });
}

int MPI_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  auto plain = [&] { return PMPI_Testsome(incount, requests, outcount, indices, statuses); };
  return intercept_completion("test", plain, [&](Call& call) {
    std::vector<MPI_Request> before(requests, requests + incount);
    StatusesOut out(statuses, incount);
    int rc = call.real_holding([&] { return PMPI_Testsome(incount, requests, outcount, indices, out.get()); });
    if (*outcount != MPI_UNDEFINED && *outcount > 0)
      settle_completed(call, before.data(), indices, *outcount, out.get());
    else if (*outcount == 0)
      finish_poll(call, Poll::test);
    return rc;
  });
}

// A completed receive's status counts the program's data alone here too; the request stays
// the program's to complete. A null request gives the standard's empty status, whose
// MPI_ERROR Open MPI leaves as it was (MPICH sets it); Wait and Test, whose MPI_ERROR the
// standard leaves undefined, are left as the library makes them.
int MPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  auto plain = [&] { return PMPI_Request_get_status(request, flag, status); };
  return intercept_completion("test", plain, [&](Call& call) {
    StatusOut out(status);
    int rc = call.real_holding([&] { return PMPI_Request_get_status(request, flag, out.get()); });
    if (rc == MPI_SUCCESS && request == MPI_REQUEST_NULL) make_empty(*out);
    else if (*flag && call.modelled()) open_completed_receive(request, *out);
    if (!*flag) finish_poll(call, Poll::test);
    return rc;
  });
}

int MPI_Request_free(MPI_Request* request) {
  ShimLock lock;
  auto* tracked = find_request(*request);
  if (tracked && tracked->active && holds_envelope(*tracked)) {
    // Still in flight with the shim's envelope: the shim completes it in the background.
    adopt(*request, std::move(*tracked));
    drop_request(*request);
    *request = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
  }
  drop_request(*request);
  return PMPI_Request_free(request);
}

}  // extern "C"
