// Blocking point-to-point calls: the real call runs unchanged; virtual time follows the rules.
#include <mpi.h>

#include <algorithm>
#include <map>

#include "revprof/shim/p2p.hpp"
#include "revprof/shim/requests.hpp"
#include "revprof/shim/runtime.hpp"

using namespace augur::revprof;
using augur::timing::SendMode;

namespace {

template <class RealSend>
int blocking_send(std::string_view op, SendMode mode, int count, MPI_Datatype type, int dest, int tag,
                  MPI_Comm comm, RealSend real) {
  Call call(op);
  if (!call.modelled()) return real();
  auto send = begin_send(mode, count, type, dest, tag, comm, call.begin());
  int rc = real();
  double waiting = 0;
  double end = end_send(send, waiting);
  call.finish(end, waiting, send.bytes);
  return rc;
}

// A receive that completed with `status`, posted at the call's begin.
void finish_receive(Call& call, MPI_Comm comm, MPI_Datatype type, int source, const MPI_Status& status) {
  auto recv = begin_receive(comm, type, source, call.begin());
  double waiting = 0;
  double end = end_receive(recv, status, waiting);
  call.finish(end, waiting, recv.bytes);
}

// Sendrecv: both halves run at once, so the send never waits for its partner's post time;
// the call ends when the later half does.
template <class RealExchange>
int exchange(int sendcount, MPI_Datatype sendtype, int dest, int sendtag, MPI_Datatype recvtype, int source,
             MPI_Comm comm, MPI_Status* status, RealExchange real) {
  Call call("sendrecv");
  if (!call.modelled()) return real(status);
  auto send = begin_send(SendMode::buffered, sendcount, sendtype, dest, sendtag, comm, call.begin());
  MPI_Status local;
  int rc = real(&local);
  double send_wait = 0, recv_wait = 0;
  send.mode = SendMode::standard;
  double send_end = end_send(send, send_wait);
  auto recv = begin_receive(comm, recvtype, source, call.begin());
  double recv_end = end_receive(recv, local, recv_wait);
  call.finish(std::max(send_end, recv_end), recv_wait, send.bytes + recv.bytes);
  if (status != MPI_STATUS_IGNORE) *status = local;
  return rc;
}

// A matched message does not name its communicator; remember it from the probe.
std::map<MPI_Message, MPI_Comm>& probed_messages() {
  static auto* messages = new std::map<MPI_Message, MPI_Comm>();
  return *messages;
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
  return blocking_send("send", SendMode::standard, count, type, dest, tag, comm,
                       [&] { return PMPI_Send(buf, count, type, dest, tag, comm); });
}

int MPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return blocking_send("ssend", SendMode::synchronous, count, type, dest, tag, comm,
                       [&] { return PMPI_Ssend(buf, count, type, dest, tag, comm); });
}

int MPI_Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return blocking_send("rsend", SendMode::ready, count, type, dest, tag, comm,
                       [&] { return PMPI_Rsend(buf, count, type, dest, tag, comm); });
}

int MPI_Bsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return blocking_send("bsend", SendMode::buffered, count, type, dest, tag, comm,
                       [&] { return PMPI_Bsend(buf, count, type, dest, tag, comm); });
}

int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status) {
  Call call("recv");
  if (!call.modelled()) return PMPI_Recv(buf, count, type, source, tag, comm, status);
  MPI_Status local;
  int rc = PMPI_Recv(buf, count, type, source, tag, comm, &local);
  finish_receive(call, comm, type, source, local);
  if (status != MPI_STATUS_IGNORE) *status = local;
  return rc;
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status) {
  return exchange(sendcount, sendtype, dest, sendtag, recvtype, source, comm, status, [&](MPI_Status* s) {
    return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                         comm, s);
  });
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag, int source, int recvtag,
                         MPI_Comm comm, MPI_Status* status) {
  return exchange(count, type, dest, sendtag, type, source, comm, status, [&](MPI_Status* s) {
    return PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, s);
  });
}

// Probes look at the envelope only; the stamp stays queued for the receive that follows.
int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
  Call call("probe");
  return PMPI_Probe(source, tag, comm, status);
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
  Call call("iprobe");
  return PMPI_Iprobe(source, tag, comm, flag, status);
}

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status) {
  Call call("mprobe");
  int rc = PMPI_Mprobe(source, tag, comm, message, status);
  if (*message != MPI_MESSAGE_NO_PROC) probed_messages()[*message] = comm;
  return rc;
}

int MPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message, MPI_Status* status) {
  Call call("improbe");
  int rc = PMPI_Improbe(source, tag, comm, flag, message, status);
  if (*flag && *message != MPI_MESSAGE_NO_PROC) probed_messages()[*message] = comm;
  return rc;
}

int MPI_Mrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Status* status) {
  Call call("recv");
  MPI_Comm comm = take_probed_comm(*message);
  MPI_Status local;
  int rc = PMPI_Mrecv(buf, count, type, message, &local);
  if (call.modelled() && comm != MPI_COMM_NULL) finish_receive(call, comm, type, local.MPI_SOURCE, local);
  if (status != MPI_STATUS_IGNORE) *status = local;
  return rc;
}

int MPI_Imrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Request* request) {
  Call call("irecv1");
  MPI_Comm comm = take_probed_comm(*message);
  int rc = PMPI_Imrecv(buf, count, type, message, request);
  if (!call.modelled() || comm == MPI_COMM_NULL) return rc;
  TrackedRequest r;
  r.kind = TrackedRequest::Kind::receive;
  r.op = "irecv2";
  r.receive = begin_receive(comm, type, 0, call.begin());
  track_request(*request, std::move(r));
  return rc;
}

}  // extern "C"
