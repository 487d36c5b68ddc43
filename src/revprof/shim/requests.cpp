#include "revprof/shim/requests.hpp"

#include <algorithm>
#include <limits>
#include <list>
#include <unordered_map>
#include <vector>

#include "revprof/shim/comms.hpp"
#include "revprof/shim/runtime.hpp"
#include "timing/steps.hpp"

namespace augur::revprof {
namespace {

// Several requests can share one handle: Open MPI hands every request that completed at once
// (towards MPI_PROC_NULL, or a small message it sent inline) the same predefined one. Each is
// kept, numbered in the order made, and a handle's requests are settled oldest first: a Waitall
// over them sees the handle once per request and settles each.
struct OrderedRequest {
  std::uint64_t order;
  TrackedRequest request;
};

std::unordered_multimap<MPI_Request, OrderedRequest>& table() {
  static auto* requests = new std::unordered_multimap<MPI_Request, OrderedRequest>();
  return *requests;
}

std::unordered_multimap<MPI_Request, OrderedRequest>::iterator oldest(MPI_Request handle) {
  auto [it, end] = table().equal_range(handle);
  auto found = it;
  for (; it != end; ++it)
    if (it->second.order < found->second.order) found = it;
  return found == end ? table().end() : found;
}

struct Adopted {
  MPI_Request handle;
  TrackedRequest request;
  bool buffered = false;  // the shim's copy of a buffered send
  long long buffer_bytes = 0;  // what that send would hold of the attached buffer
};

std::list<Adopted>& adopted() {
  static auto* requests = new std::list<Adopted>();
  return *requests;
}

// Opens a completed adopted receive (sending its post time back if asked) and frees a
// persistent request, which MPI keeps after completion.
void finish_adopted(Adopted& a, MPI_Status& status) {
  if (has_receive(a.request)) take_stamp(a.request.receive, status);
  if (a.request.persistent && a.handle != MPI_REQUEST_NULL) PMPI_Request_free(&a.handle);
}

}  // namespace

OwnedType::~OwnedType() {
  int finalized = 0;
  PMPI_Finalized(&finalized);
  if (type_ != MPI_DATATYPE_NULL && !finalized) PMPI_Type_free(&type_);
}

TrackedRequest& track_request(MPI_Request handle, TrackedRequest request) {
  static std::uint64_t made = 0;
  return table().emplace(handle, OrderedRequest{made++, std::move(request)})->second.request;
}

namespace {

// A send's or a receive's peer in MPI_COMM_WORLD as the trace's request record names it.
int traced_peer(const SendRecord& s) { return s.shadow ? world_rank_of(*s.shadow, s.dest) : trace::kNullPeer; }

int traced_peer(const ReceiveRecord& r) {
  if (!r.shadow) return trace::kNullPeer;
  return r.source == MPI_ANY_SOURCE ? -1 : world_rank_of(*r.shadow, r.source);
}

}  // namespace

void trace_request(TrackedRequest& request, const Times& begin) {
  static std::int64_t next_id = 0;
  if (!runtime().trace) return;
  auto write = [&](std::int64_t& id, int peer) {
    id = next_id++;
    to_trace([&](trace::RankWriter& t) { t.request(shown(begin), static_cast<std::uint32_t>(id), peer); });
  };
  // An exchange's records come as an MPI_Isend's and then an MPI_Irecv's would.
  if (request.kind != TrackedRequest::Kind::receive) write(request.trace_ids[0], traced_peer(request.send));
  if (has_receive(request)) write(request.trace_ids[request.kind == TrackedRequest::Kind::exchange], traced_peer(request.receive));
}

TrackedRequest* find_request(MPI_Request handle) {
  if (handle == MPI_REQUEST_NULL) return nullptr;
  auto it = oldest(handle);
  return it == table().end() ? nullptr : &it->second.request;
}

void drop_request(MPI_Request handle) {
  if (auto it = oldest(handle); it != table().end()) table().erase(it);
}

namespace {

// MPI 4.0's MPI_Isendrecv may complete without setting its status (MPICH 4.0.2 sets none);
// the header says what the receive's would.
void status_from_header(Envelope& envelope, MPI_Status& status) {
  const Header& h = envelope.header();
  status.MPI_SOURCE = h.source;
  status.MPI_TAG = h.tag;
  PMPI_Status_set_elements_x(&status, MPI_BYTE, kHeaderBytes + static_cast<MPI_Count>(h.data_bytes));
}

// MPI_Isendrecv ends as MPI_Sendrecv would from the call's begin (timing/steps.hpp).
Times settle_exchange(TrackedRequest& r, MPI_Status& status, Times& waiting) {
  Times send_wait, recv_wait;
  r.send.mode = timing::SendMode::standard;
  const Times send_end = end_send(r.send, send_wait);
  if (r.receive.shadow) status_from_header(r.receive.envelope(), status);
  const Times recv_end = end_receive(r.receive, status, recv_wait);
  waiting = recv_wait;
  return timing::sendrecv_call_end(rules_with(r.send.shadow, r.send.dest), r.begin, send_end, recv_end,
                                   r.send.dest != MPI_PROC_NULL && r.receive.source != MPI_PROC_NULL,
                                   static_cast<double>(std::max(r.send.bytes, r.receive.bytes)));
}

}  // namespace

std::optional<Times> settle(MPI_Request handle, MPI_Status& status, Times& waiting, double& bytes,
                            TraceIds& trace_ids) {
  auto* r = find_request(handle);
  if (!r || !r->active) return std::nullopt;
  trace_ids = r->trace_ids;
  Times end;
  switch (r->kind) {
    case TrackedRequest::Kind::send:
      end = end_send(r->send, waiting);
      bytes = r->send.bytes;
      break;
    case TrackedRequest::Kind::receive:
      end = end_receive(r->receive, status, waiting);
      bytes = r->receive.bytes;
      break;
    case TrackedRequest::Kind::exchange:
      end = settle_exchange(*r, status, waiting);
      bytes = r->send.bytes + r->receive.bytes;
      break;
    case TrackedRequest::Kind::one_sided:
      end = r->begin;
      break;
    case TrackedRequest::Kind::collective:
      {
        ShimUnlocked waiting_for_members;
        PMPI_Wait(&r->collective.exchange, MPI_STATUS_IGNORE);
      }
      end = collective_finish(r->collective, waiting);
      bytes = r->collective.all.bytes;
      break;
  }
  if (r->persistent) r->active = false;
  else drop_request(handle);
  return end;
}

bool holds_envelope(TrackedRequest& r) {
  if (!r.kept.empty()) return true;
  if (r.kind != TrackedRequest::Kind::receive && !r.send.envelope.empty()) return true;
  return has_receive(r) && !r.receive.envelope().empty();
}

namespace {

bool request_refers_to(const TrackedRequest& r, const Shadow* s) {
  return r.send.shadow == s || r.receive.shadow == s || r.collective.shadow == s;
}

}  // namespace

bool refers_to(const Shadow& shadow) {
  for (const auto& [handle, entry] : table())
    if (request_refers_to(entry.request, &shadow)) return true;
  for (const auto& a : adopted())
    if (request_refers_to(a.request, &shadow)) return true;
  return false;
}

void open_completed_receive(MPI_Request handle, MPI_Status& status) {
  auto* r = find_request(handle);
  if (r && r->active && has_receive(*r)) take_stamp(r->receive, status);
}

void adopt(MPI_Request handle, TrackedRequest request, bool buffered) {
  auto& list = adopted();
  list.push_back({handle, std::move(request), buffered});
  auto& r = list.back().request;
  if (r.receive.kept) r.receive.kept = &r.kept;
}

namespace {

void test_adopted(std::list<Adopted>& list) {
  for (auto it = list.begin(); it != list.end();) {
    int done = 0;
    MPI_Status status;
    PMPI_Test(&it->handle, &done, &status);
    if (done) finish_adopted(*it, status);
    it = done ? list.erase(it) : std::next(it);
  }
}

// MPI delivers a buffered send, and a send the program freed, whatever the receiver does
// meanwhile: such a send is never cancelled, only waited for, however long its receiver takes.
void wait_for_sends(std::list<Adopted>& list, bool buffered_only) {
  for (auto it = list.begin(); it != list.end();) {
    const bool waits = it->request.kind == TrackedRequest::Kind::send && (it->buffered || !buffered_only);
    if (!waits) {
      ++it;
      continue;
    }
    MPI_Status status;
    PMPI_Wait(&it->handle, &status);
    finish_adopted(*it, status);
    it = list.erase(it);
  }
}

}  // namespace

void tend_adopted(bool final) {
  auto& list = adopted();
  test_adopted(list);
  if (!final) return;
  wait_for_sends(list, false);
  // A receive the program freed and nobody sent to would hold MPI_Finalize forever: after a
  // grace period it is cancelled.
  const double deadline = PMPI_Wtime() + 1.0;
  while (!list.empty() && PMPI_Wtime() < deadline) test_adopted(list);
  for (auto& a : list) {
    PMPI_Cancel(&a.handle);
    PMPI_Wait(&a.handle, MPI_STATUS_IGNORE);
    if (a.request.persistent && a.handle != MPI_REQUEST_NULL) PMPI_Request_free(&a.handle);
  }
  list.clear();
}

void wait_for_buffered_sends() { wait_for_sends(adopted(), true); }

namespace {

int attached_bytes = 0;

// Bytes of the attached buffer the program's pending buffered sends would hold without the
// shim: each message's packed size and MPI's overhead per message.
long long bytes_in_buffer(int count, MPI_Datatype type, MPI_Comm comm) {
  int packed = 0;
  PMPI_Pack_size(count, type, comm, &packed);
  return static_cast<long long>(packed) + MPI_BSEND_OVERHEAD;
}

long long buffer_in_use() {
  long long used = 0;
  for (const auto& a : adopted()) used += a.buffer_bytes;
  return used;
}

}  // namespace

void note_buffer_attached(int bytes) { attached_bytes = bytes; }

int buffered_send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                  const Times& start, SendRecord& timing) {
  timing = begin_send(timing::SendMode::buffered, buf, count, type, dest, tag, comm, start, Carry::own_copy);
  if (timing.envelope.empty()) return PMPI_Bsend(buf, count, type, dest, tag, comm);
  // The shim's copy does not use the attached buffer, so MPI cannot find it too small: the shim
  // raises the error MPI would have raised, through the communicator's error handler.
  const long long needed = bytes_in_buffer(count, type, comm);
  test_adopted(adopted());
  if (buffer_in_use() + needed > attached_bytes) {
    timing = SendRecord{};
    PMPI_Comm_call_errhandler(comm, MPI_ERR_BUFFER);
    return MPI_ERR_BUFFER;
  }
  TrackedRequest copy;
  copy.kind = TrackedRequest::Kind::send;
  copy.send.envelope = std::move(timing.envelope);
  const Wire w = copy.send.wire();
  MPI_Request sent = MPI_REQUEST_NULL;
  int rc = PMPI_Isend(w.buf, w.count, w.type, dest, tag, comm, &sent);
  adopt(sent, std::move(copy), true);
  adopted().back().buffer_bytes = needed;
  return rc;
}

void serve_pending_receives() {
  for (auto& [handle, entry] : table()) {
    auto& r = entry.request;
    if (!has_receive(r) || !r.active || r.receive.stamped) continue;
    int done = 0;
    MPI_Status status;
    PMPI_Request_get_status(handle, &done, &status);
    if (done) take_stamp(r.receive, status);
  }
}

void exchange_starts(CollectiveRecord& c, bool blocking) {
  constexpr int n = sizeof(CollectiveRecord::Starts) / sizeof(double);
  auto* mine = reinterpret_cast<double*>(&c.mine);
  auto* all = reinterpret_cast<double*>(&c.all);
  if (blocking) {
    ShimUnlocked waiting_for_members;
    PMPI_Allreduce(mine, all, n, MPI_DOUBLE, MPI_MAX, c.shadow->stamps);
  }
  else PMPI_Iallreduce(mine, all, n, MPI_DOUBLE, MPI_MAX, c.shadow->stamps, &c.exchange);
}

namespace {

// The world ranks of a communicator's members, for the placement of its collectives.
std::vector<int> world_ranks(const Shadow& comm) {
  std::vector<int> ranks(static_cast<std::size_t>(comm.size));
  for (int i = 0; i < comm.size; ++i) ranks[static_cast<std::size_t>(i)] = world_rank_of(comm, i);
  return ranks;
}

}  // namespace

Times collective_finish(const CollectiveRecord& c, Times& waiting) {
  const auto shape = timing::shape_of(c.op);
  const auto& rt = runtime();
  const Times duration = rt.levels ? rt.levels->collective_duration(c.op, world_ranks(*c.shadow), c.all.bytes, c.is_root)
                                   : rt.rules->collective_duration(c.op, c.shadow->size, c.all.bytes, c.is_root);
  const Times end = timing::collective_end(shape, c.is_root, c.start, timing::BasicCollectiveStarts<Times>{c.all.start, c.all.root}, duration);
  waiting = later(Times{}, end - c.start - duration);
  return end;
}


namespace {

constexpr double kNoRoot = -1e300;  // below any start time, so MPI_MAX ignores it

}  // namespace

CollectiveRecord make_record(std::string_view op, const Shadow& s, int root, const Times& start, double bytes) {
  CollectiveRecord c;
  c.op = op;
  c.shadow = &s;
  c.is_root = root >= 0 && s.rank == root;
  c.start = start;
  c.mine = {start, c.is_root ? start : Times::same(kNoRoot), bytes};
  return c;
}

void trace_collective(const CollectiveRecord& c, const Times& end, int root) {
  to_trace([&](augur::trace::RankWriter& t) {
    t.collective(shown(c.start), shown(event_time(end)), t.name_id(c.op), c.shadow->id, root,
                 static_cast<std::uint64_t>(c.all.bytes));
  });
}

void finish_synchronising(Call& call, std::string_view op, const Shadow& s, const Times& start, bool traced) {
  auto c = make_record(op, s, -1, start, 0);
  exchange_starts(c, true);
  Times waiting;
  const Times end = collective_finish(c, waiting);
  if (traced) trace_collective(c, end, -1);
  call.finish(end, waiting, 0);
}

}  // namespace augur::revprof
