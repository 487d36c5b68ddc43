#include "trace/otf2_events.hpp"
#include "model/units.hpp"

#include <fmt/format.h>

namespace augur::trace {

namespace {

Otf2RankBuilder& builder(void* data) { return *static_cast<Otf2RankBuilder*>(data); }
constexpr auto kGo = OTF2_CALLBACK_SUCCESS;

OTF2_CallbackCode on_enter(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* d, OTF2_AttributeList* a, OTF2_RegionRef r) {
  builder(d).enter(t, a, r);
  return kGo;
}
OTF2_CallbackCode on_leave(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* d, OTF2_AttributeList* a, OTF2_RegionRef r) {
  builder(d).leave(t, a, r);
  return kGo;
}
OTF2_CallbackCode on_send(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* d, OTF2_AttributeList*, uint32_t peer,
                          OTF2_CommRef c, uint32_t tag, uint64_t n) {
  builder(d).send(t, peer, c, tag, n, std::nullopt);
  return kGo;
}
OTF2_CallbackCode on_isend(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* d, OTF2_AttributeList*, uint32_t peer,
                           OTF2_CommRef c, uint32_t tag, uint64_t n, uint64_t request) {
  builder(d).send(t, peer, c, tag, n, request);
  return kGo;
}
OTF2_CallbackCode on_isend_complete(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* d, OTF2_AttributeList*, uint64_t request) {
  builder(d).count_event(t);
  builder(d).send_complete(request);
  return kGo;
}
OTF2_CallbackCode on_irecv_request(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* d, OTF2_AttributeList*, uint64_t request) {
  builder(d).count_event(t);
  builder(d).receive_request(request);
  return kGo;
}
OTF2_CallbackCode on_recv(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* d, OTF2_AttributeList* a, uint32_t peer,
                          OTF2_CommRef c, uint32_t tag, uint64_t n) {
  builder(d).receive(t, a, peer, c, tag, n, std::nullopt);
  return kGo;
}
OTF2_CallbackCode on_irecv(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* d, OTF2_AttributeList* a, uint32_t peer,
                           OTF2_CommRef c, uint32_t tag, uint64_t n, uint64_t request) {
  builder(d).receive(t, a, peer, c, tag, n, request);
  return kGo;
}
OTF2_CallbackCode on_request_test(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* d, OTF2_AttributeList*, uint64_t) {
  builder(d).count_event(t);  // a test that found the request still open changes nothing
  return kGo;
}
OTF2_CallbackCode on_cancelled(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* d, OTF2_AttributeList*, uint64_t request) {
  builder(d).count_event(t);
  builder(d).cancelled(request);
  return kGo;
}
OTF2_CallbackCode on_collective_begin(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* d, OTF2_AttributeList*) {
  builder(d).count_event(t);
  builder(d).collective_begin();
  return kGo;
}
OTF2_CallbackCode on_collective_end(OTF2_LocationRef, OTF2_TimeStamp t, uint64_t, void* d, OTF2_AttributeList* a,
                                    OTF2_CollectiveOp op, OTF2_CommRef c, uint32_t root, uint64_t sent, uint64_t received) {
  builder(d).collective_end(t, a, op, c, root, sent, received);
  return kGo;
}

}  // namespace

void Otf2RankBuilder::set_callbacks(OTF2_EvtReaderCallbacks* cb) {
  OTF2_EvtReaderCallbacks_SetEnterCallback(cb, on_enter);
  OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, on_leave);
  OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, on_send);
  OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, on_isend);
  OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, on_isend_complete);
  OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, on_irecv_request);
  OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, on_recv);
  OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, on_irecv);
  OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(cb, on_request_test);
  OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, on_cancelled);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, on_collective_begin);
  OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, on_collective_end);
}

Otf2RankBuilder::Otf2RankBuilder(const Otf2ArchiveContext& archive, Trace& trace, int rank)
    : archive_(archive), names_(trace.names), rank_(trace.ranks[static_cast<std::size_t>(rank)]) {}

bool Otf2RankBuilder::creates_communicator() const {
  return open_ && model::creates_communicator(names_[open_->state.op]);
}

double Otf2RankBuilder::seconds(OTF2_TimeStamp ts, OTF2_AttributeList* attributes) const {
  if (archive_.defs.exact_time && attributes) {
    double exact = 0;
    if (OTF2_AttributeList_GetDouble(attributes, *archive_.defs.exact_time, &exact) == OTF2_SUCCESS) return exact;
  }
  return archive_.defs.seconds(ts);
}

std::uint8_t Otf2RankBuilder::wildcard(OTF2_AttributeList* attributes) const {
  std::uint8_t bits = 0;
  if (archive_.defs.wildcard && attributes) OTF2_AttributeList_GetUint8(attributes, *archive_.defs.wildcard, &bits);
  return bits & (kAnySource | kAnyTag);
}

void Otf2RankBuilder::count_event(OTF2_TimeStamp ts) {
  ++events_;
  const double t = archive_.defs.seconds(ts);
  if (!last_end_) last_end_ = t;  // the location's first event: compute starts there
  last_time_ = std::max(last_time_, t);
}

void Otf2RankBuilder::compute_until(double t) {
  if (archive_.explicit_states) return;
  if (last_end_ && t > *last_end_) rank_.states.push_back({*last_end_, t, 0, StateKind::compute});
}

void Otf2RankBuilder::enter(OTF2_TimeStamp ts, OTF2_AttributeList* attributes, OTF2_RegionRef region) {
  const double t = seconds(ts, attributes);
  ++events_;
  if (!last_end_) last_end_ = t;
  last_time_ = std::max(last_time_, t);
  stack_.push_back(region);
  auto it = archive_.regions.find(region);
  const RegionMeaning m = it == archive_.regions.end() ? RegionMeaning{} : it->second;
  if (m.use == RegionUse::phase) return rank_.phases.push_back({t, m.name, true});
  if (m.use == RegionUse::other || open_) return;  // nested MPI regions belong to the open call
  static constexpr StateKind kinds[] = {StateKind::mpi, StateKind::compute, StateKind::wait, StateKind::idle};
  const StateKind kind = kinds[static_cast<int>(m.use)];
  if (kind == StateKind::mpi) compute_until(t);
  open_ = Open{t, region, stack_.size(), State{t, t, m.name, kind}};
  std::uint64_t null_request = 0;
  if (kind == StateKind::mpi && archive_.defs.null_request && attributes &&
      OTF2_AttributeList_GetUint64(attributes, *archive_.defs.null_request, &null_request) == OTF2_SUCCESS) {
    // Completed, as an Isend's, by the MpiIsendComplete of the Wait that counted it.
    pending_[null_request] = {next_request_, false, t, rank_.requests.size()};
    rank_.requests.push_back({t, next_request_++, kNullPeer});
  }
}

void Otf2RankBuilder::leave(OTF2_TimeStamp ts, OTF2_AttributeList* attributes, OTF2_RegionRef region) {
  const double t = seconds(ts, attributes);
  ++events_;
  last_time_ = std::max(last_time_, t);
  if (stack_.empty() || stack_.back() != region) return note("Leave of a region that was not entered last");
  stack_.pop_back();
  auto it = archive_.regions.find(region);
  if (it != archive_.regions.end() && it->second.use == RegionUse::phase)
    return rank_.phases.push_back({t, it->second.name, false});
  if (!open_ || open_->depth != stack_.size() + 1) return;
  open_->state.end = t;
  rank_.states.push_back(open_->state);
  if (open_->state.kind == StateKind::mpi) last_end_ = t;
  open_.reset();
  collective_open_ = false;
}

std::optional<double> Otf2RankBuilder::call_time(std::string_view event) {
  if (open_ && open_->state.kind == StateKind::mpi) return open_->begin;
  note(fmt::format("{} outside an MPI call", event));
  return std::nullopt;
}

std::optional<std::int32_t> Otf2RankBuilder::world(OTF2_CommRef comm, std::uint32_t rank, std::string_view event) {
  auto w = archive_.defs.world_rank(comm, rank);
  if (!w) note(fmt::format("{} naming rank {} of communicator {}, which the definitions do not have", event, rank, comm));
  return w;
}

std::int32_t Otf2RankBuilder::comm_id(OTF2_CommRef comm) const { return archive_.defs.comms.at(comm).id; }

void Otf2RankBuilder::send(OTF2_TimeStamp ts, std::uint32_t receiver, OTF2_CommRef comm, std::uint32_t tag,
                           std::uint64_t bytes, std::optional<std::uint64_t> request) {
  count_event(ts);
  const std::string_view event = request ? "MpiIsend" : "MpiSend";
  auto time = call_time(event);
  auto dst = world(comm, receiver, event);
  if (!time || !dst) return;
  rank_.sends.push_back({*time, *dst, static_cast<std::int32_t>(tag), comm_id(comm), bytes});
  if (!request) return;
  pending_[*request] = {next_request_, false, *time, rank_.requests.size()};
  rank_.requests.push_back({*time, next_request_++, *dst});
}

void Otf2RankBuilder::send_complete(std::uint64_t request) {
  auto it = pending_.find(request);
  if (it == pending_.end() || it->second.receive) return note("MpiIsendComplete of a request no MpiIsend made");
  auto time = call_time("MpiIsendComplete");
  if (!time) return;
  rank_.completions.push_back({*time, it->second.id});
  pending_.erase(it);
}

void Otf2RankBuilder::receive_request(std::uint64_t request) {
  auto time = call_time("MpiIrecvRequest");
  if (!time) return;
  // The source is known only when the receive completes; until then it is any source.
  pending_[request] = {next_request_, true, *time, rank_.requests.size()};
  rank_.requests.push_back({*time, next_request_++, -1});
}

void Otf2RankBuilder::receive(OTF2_TimeStamp ts, OTF2_AttributeList* attributes, std::uint32_t sender,
                              OTF2_CommRef comm, std::uint32_t tag, std::uint64_t bytes,
                              std::optional<std::uint64_t> request) {
  count_event(ts);
  const std::string_view event = request ? "MpiIrecv" : "MpiRecv";
  auto time = call_time(event);
  auto src = world(comm, sender, event);
  if (!time || !src) return;
  const double end = std::max(*time, seconds(ts, attributes));
  const std::uint8_t open = wildcard(attributes);
  if (!request) return rank_.recvs.push_back({*time, end, *src, static_cast<std::int32_t>(tag), comm_id(comm), bytes, open});
  auto it = pending_.find(*request);
  if (it == pending_.end() || !it->second.receive) return note("MpiIrecv of a request no MpiIrecvRequest made");
  rank_.recvs.push_back({it->second.post, end, *src, static_cast<std::int32_t>(tag), comm_id(comm), bytes, open});
  if (!(open & kAnySource)) rank_.requests[it->second.request_index].peer = *src;
  rank_.completions.push_back({*time, it->second.id});
  pending_.erase(it);
}

void Otf2RankBuilder::cancelled(std::uint64_t request) {
  if (pending_.erase(request) == 0) return note("MpiRequestCancelled of a request never made");
  note("request cancelled (left open in the replay)");
}

void Otf2RankBuilder::collective_end(OTF2_TimeStamp ts, OTF2_AttributeList* attributes, OTF2_CollectiveOp op,
                                     OTF2_CommRef comm, std::uint32_t root, std::uint64_t sent, std::uint64_t received) {
  count_event(ts);
  if (!collective_open_) note("MpiCollectiveEnd without MpiCollectiveBegin");
  collective_open_ = false;
  // Of the handles' collectives, native traces record communicators' creation only (its parent is
  // what the replay needs); freeing them and windows' leave no record.
  if (op > OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK && !(op == OTF2_COLLECTIVE_OP_CREATE_HANDLE && creates_communicator()))
    return;
  auto time = call_time("MpiCollectiveEnd");
  if (!time) return;
  auto comm_it = archive_.defs.comms.find(comm);
  if (comm_it == archive_.defs.comms.end()) return note("MpiCollectiveEnd on a communicator the definitions do not have");
  const Otf2Comm& c = comm_it->second;
  std::int32_t world_root = -1;
  if (root != OTF2_UNDEFINED_UINT32) {
    auto w = world(comm, root, "MpiCollectiveEnd");
    if (!w) return;
    world_root = *w;
  }
  const std::uint64_t bytes = archive_.call_sizes ? sent : collective_call_size(op, sent, received, c.world_ranks.size());
  rank_.collectives.push_back({*time, std::max(*time, seconds(ts, attributes)), open_->state.op, c.id, world_root, bytes});
}

void Otf2RankBuilder::finish() {
  if (open_) note("MPI call still open at the end of the location (left out)");
  open_.reset();
  compute_until(last_time_);
  for (const auto& [id, p] : pending_)
    if (p.receive) note("MpiIrecvRequest never completed");
}

}  // namespace augur::trace
