// Blocking point-to-point calls: the real call runs unchanged; virtual time follows the rules.
#include <mpi.h>

#include <algorithm>
#include <map>

#include "revprof/shim/p2p.hpp"
#include "revprof/shim/requests.hpp"
#include "revprof/shim/runtime.hpp"
#include "revprof/shim/statuses.hpp"
#include "timing/steps.hpp"

using namespace augur::revprof;
using augur::timing::SendMode;

namespace {

template <class RealSend>
int blocking_send(std::string_view op, SendMode mode, const void* buf, int count, MPI_Datatype type, int dest,
                  int tag, MPI_Comm comm, RealSend real) {
  return intercept(op, [&] { return real(Wire{buf, count, type}); }, [&](Call& call) {
    auto send = begin_send(mode, buf, count, type, dest, tag, comm, call.begin());
    int rc = call.real([&] { return real(send.wire()); });
    Times waiting;
    const Times end = end_send(send, waiting);
    call.finish(end, waiting, send.bytes);
    return rc;
  });
}

// A blocking receive into `recv`'s wire, posted at the call's begin.
template <class RealReceive>
int blocking_receive(Call& call, ReceiveRecord recv, MPI_Status* status, RealReceive real) {
  StatusOut out(status);
  const Wire w = recv.wire();
  int rc = call.real([&] { return real(w, out.get()); });
  Times waiting;
  const Times end = end_receive(recv, *out, waiting);
  call.finish(end, waiting, recv.bytes);
  return rc;
}

// Sendrecv: both halves run at once, so the send never waits for its partner's post time;
// the call ends when the later half does, and with partners on both sides no earlier than the
// model's sendrecv (rules.hpp). That floor is the cost of one process doing both halves at once
// and holds in a ring shift too, where no message crosses; with a single partner the received
// message has also crossed ours, and the later of the two floors ends the call.
// Sendrecv_replace sends a copy, as its buffer is also the receive's.
int exchange(Call& call, const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
             void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
             MPI_Status* status, Carry carry) {
  auto send = begin_send(SendMode::buffered, sendbuf, sendcount, sendtype, dest, sendtag, comm, call.begin(), carry);
  auto recv = begin_receive(comm, recvbuf, recvcount, recvtype, source, recvtag, call.begin());
  const Wire out = send.wire(), in = recv.wire();
  StatusOut received(status);
  int rc = call.real([&] {
    return PMPI_Sendrecv(out.buf, out.count, out.type, dest, sendtag, const_cast<void*>(in.buf), in.count, in.type,
                         source, recvtag, comm, received.get());
  });
  Times send_wait, recv_wait;
  send.mode = SendMode::standard;
  const Times send_end = end_send(send, send_wait);
  const Times recv_end = end_receive(recv, *received, recv_wait);
  const Times end = augur::timing::sendrecv_call_end(rules_with(send.shadow, dest), call.begin(), send_end, recv_end,
                                                    dest != MPI_PROC_NULL && source != MPI_PROC_NULL,
                                                    static_cast<double>(std::max(send.bytes, recv.bytes)));
  call.finish(end, recv_wait, send.bytes + recv.bytes);
  return rc;
}

// A matched message does not name its communicator; remember it from the probe.
std::map<MPI_Message, MPI_Comm>& probed_messages() {
  static auto* messages = new std::map<MPI_Message, MPI_Comm>();
  return *messages;
}

// Takes the header's bytes out of the count of the status a probe hands the program.
void strip_probed(MPI_Comm comm, MPI_Status& status) {
  if (shadow_of(comm)) strip_header_from(status);
}

MPI_Comm take_probed_comm(MPI_Message message) {
  auto& m = probed_messages();
  auto it = m.find(message);
  if (it == m.end()) return MPI_COMM_NULL;
  MPI_Comm comm = it->second;
  m.erase(it);
  return comm;
}

}  // namespace

extern "C" {

int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return blocking_send("send", SendMode::standard, buf, count, type, dest, tag, comm,
                       [&](const Wire& w) { return PMPI_Send(w.buf, w.count, w.type, dest, tag, comm); });
}

int MPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return blocking_send("ssend", SendMode::synchronous, buf, count, type, dest, tag, comm,
                       [&](const Wire& w) { return PMPI_Ssend(w.buf, w.count, w.type, dest, tag, comm); });
}

int MPI_Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return blocking_send("rsend", SendMode::ready, buf, count, type, dest, tag, comm,
                       [&](const Wire& w) { return PMPI_Rsend(w.buf, w.count, w.type, dest, tag, comm); });
}

int MPI_Bsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return intercept("bsend", [&] { return PMPI_Bsend(buf, count, type, dest, tag, comm); }, [&](Call& call) {
    SendRecord send;
    int rc = call.real([&] { return buffered_send(buf, count, type, dest, tag, comm, call.begin(), send); });
    Times waiting;
    const Times end = end_send(send, waiting);
    call.finish(end, waiting, send.bytes);
    return rc;
  });
}

// The shim's copies of buffered sends stand in for the attached buffer's messages; detaching
// waits for them as MPI waits for the buffer's own.
int MPI_Buffer_detach(void* buffer, int* size) {
  ShimLock lock;
  if (runtime().active) wait_for_buffered_sends();
  int rc = PMPI_Buffer_detach(buffer, size);
  if (rc == MPI_SUCCESS) note_buffer_attached(0);
  return rc;
}

int MPI_Buffer_attach(void* buffer, int size) {
  ShimLock lock;
  int rc = PMPI_Buffer_attach(buffer, size);
  if (rc == MPI_SUCCESS) note_buffer_attached(size);
  return rc;
}

int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status) {
  return intercept("recv", [&] { return PMPI_Recv(buf, count, type, source, tag, comm, status); }, [&](Call& call) {
    return blocking_receive(call, begin_receive(comm, buf, count, type, source, tag, call.begin()), status,
                            [&](const Wire& w, MPI_Status* s) {
                              return PMPI_Recv(const_cast<void*>(w.buf), w.count, w.type, source, tag, comm, s);
                            });
  });
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  auto plain = [&] {
    return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                         comm, status);
  };
  return intercept("sendrecv", plain, [&](Call& call) {
    return exchange(call, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                    comm, status, Carry::in_place);
  });
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag, int source, int recvtag,
                         MPI_Comm comm, MPI_Status* status) {
  auto plain = [&] { return PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, status); };
  return intercept("sendrecv", plain, [&](Call& call) {
    // With neither half followed (MPI_PROC_NULL on both sides, arguments MPI refuses) no header
    // travels, and the real call gives the program exactly what it gives without the shim.
    if (!followed_either(comm, count, type, dest, sendtag, source, recvtag)) return call.real(plain);
    return exchange(call, buf, count, type, dest, sendtag, buf, count, type, source, recvtag, comm, status,
                    Carry::own_copy);
  });
}

// Probes look at the message without receiving it; the status they report counts the
// program's data, without the header.
int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  return intercept("probe", [&] { return PMPI_Probe(source, tag, comm, status); }, [&](Call& call) {
    StatusOut out(status);
    int rc = call.real([&] { return PMPI_Probe(source, tag, comm, out.get()); });
    strip_probed(comm, *out);
    return rc;
  });
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  return intercept("iprobe", [&] { return PMPI_Iprobe(source, tag, comm, flag, status); }, [&](Call& call) {
    StatusOut out(status);
    int rc = call.real([&] { return PMPI_Iprobe(source, tag, comm, flag, out.get()); });
    if (*flag) strip_probed(comm, *out);
    finish_poll(call, Poll::iprobe);
    return rc;
  });
}

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status) {
  return intercept("mprobe", [&] { return PMPI_Mprobe(source, tag, comm, message, status); }, [&](Call& call) {
    StatusOut out(status);
    int rc = call.real([&] { return PMPI_Mprobe(source, tag, comm, message, out.get()); });
    if (*message != MPI_MESSAGE_NO_PROC) probed_messages()[*message] = comm;
    strip_probed(comm, *out);
    return rc;
  });
}

int MPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message, MPI_Status* status) {
  return intercept("improbe", [&] { return PMPI_Improbe(source, tag, comm, flag, message, status); }, [&](Call& call) {
    StatusOut out(status);
    int rc = call.real([&] { return PMPI_Improbe(source, tag, comm, flag, message, out.get()); });
    finish_poll(call, Poll::iprobe);
    if (!*flag) return rc;
    if (*message != MPI_MESSAGE_NO_PROC) probed_messages()[*message] = comm;
    strip_probed(comm, *out);
    return rc;
  });
}

int MPI_Mrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Status* status) {
  auto plain = [&] { return PMPI_Mrecv(buf, count, type, message, status); };
  return intercept("recv", plain, [&](Call& call) {
    MPI_Comm comm = take_probed_comm(*message);
    if (comm == MPI_COMM_NULL) return call.real(plain);
    // The matched message's source is known to MPI alone; MPI_ANY_SOURCE stands for it here.
    // The probe chose the message, so the trace records no wildcard for a replay to re-match.
    auto receive = begin_receive(comm, buf, count, type, MPI_ANY_SOURCE, MPI_ANY_TAG, call.begin());
    receive.wildcard = 0;
    return blocking_receive(call, std::move(receive), status, [&](const Wire& w, MPI_Status* s) {
      return PMPI_Mrecv(const_cast<void*>(w.buf), w.count, w.type, message, s);
    });
  });
}

int MPI_Imrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Request* request) {
  auto plain = [&] { return PMPI_Imrecv(buf, count, type, message, request); };
  return intercept("irecv1", plain, [&](Call& call) {
    MPI_Comm comm = take_probed_comm(*message);
    if (comm == MPI_COMM_NULL) return call.real(plain);
    TrackedRequest r;
    r.kind = TrackedRequest::Kind::receive;
    r.op = "irecv2";
    r.receive = begin_receive(comm, buf, count, type, MPI_ANY_SOURCE, MPI_ANY_TAG, call.begin());
    r.receive.wildcard = 0;
    const Wire w = r.receive.wire();
    int rc = call.real([&] { return PMPI_Imrecv(const_cast<void*>(w.buf), w.count, w.type, message, request); });
    trace_request(r, call.begin());
    track_request(*request, std::move(r));
    return rc;
  });
}

}  // extern "C"
