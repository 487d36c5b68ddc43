#include "revprof/shim/p2p.hpp"

#include <algorithm>

#include "revprof/shim/datatypes.hpp"
#include "revprof/shim/runtime.hpp"
#include "timing/steps.hpp"

namespace augur::revprof {

const Shadow* followed_send(MPI_Comm comm, int count, MPI_Datatype type, int dest, int tag) {
  const Shadow* s = dest == MPI_PROC_NULL ? nullptr : shadow_of(comm);
  if (!s) return nullptr;
  const bool valid = count >= 0 && type != MPI_DATATYPE_NULL && dest >= 0 && dest < s->size && tag >= 0;
  return valid ? s : nullptr;
}

const Shadow* followed_receive(MPI_Comm comm, int count, MPI_Datatype type, int source, int tag) {
  const Shadow* s = source == MPI_PROC_NULL ? nullptr : shadow_of(comm);
  if (!s) return nullptr;
  const bool valid = count >= 0 && type != MPI_DATATYPE_NULL &&
                     (source == MPI_ANY_SOURCE || (source >= 0 && source < s->size)) && (tag >= 0 || tag == MPI_ANY_TAG);
  return valid ? s : nullptr;
}

SendRecord begin_send(timing::SendMode mode, const void* buf, int count, MPI_Datatype type, int dest, int tag,
                      MPI_Comm comm, const Times& start, Carry carry) {
  SendRecord s;
  s.plain = {buf, count, type};
  s.mode = mode;
  s.bytes = message_bytes(count, type);
  s.dest = dest;
  s.tag = tag;
  s.start = start;
  s.shadow = followed_send(comm, count, type, dest, tag);
  s.leaves = start;
  if (!s.shadow) return s;
  auto& rt = runtime();
  const auto& rules = rules_with(s.shadow, dest);
  s.leaves = rules.departure(rt.link_free, start, s.bytes);
  if (dest >= 0 && dest < s.shadow->size) s.shadow->last_send[dest] = {s.leaves, static_cast<double>(s.bytes)};
  // The real run waits or not, once: the chosen bound's eager limit decides for every clock.
  bool rendezvous = rules.waits_for_receiver(mode, s.bytes);
  if (rendezvous) s.receipt = std::make_unique<PostTimeReceipt>(*s.shadow, dest, tag);
  s.header = {s.leaves, rendezvous ? 1.0 : 0.0, static_cast<double>(s.bytes), s.shadow->rank, tag};
  if (carry == Carry::in_place) s.envelope = Envelope::around(buf, count, type);
  if (carry == Carry::own_copy) s.envelope = Envelope::copy_of(buf, count, type, comm);
  if (!s.envelope.empty()) {
    s.envelope.header() = s.header;
    s.envelope.seal();
  }
  to_trace([&](trace::RankWriter& t) {
    t.send(shown(start), world_rank_of(*s.shadow, dest), tag, static_cast<std::uint64_t>(s.bytes), s.shadow->id);
  });
  return s;
}

Times end_send(SendRecord& s, Times& waiting) {
  auto& rt = runtime();
  waiting = {};
  if (!s.shadow) return s.start;
  const auto& rules = rules_with(s.shadow, s.dest);
  const Times plain = timing::send_call_end(rules, s.mode, s.start, s.bytes);
  if (!s.receipt) return plain;
  auto post = s.receipt->collect(rt.config.ack_wait_limit);
  s.receipt.reset();
  if (!post) return plain;
  const auto sent = timing::waited_send(plain, rules.waiting_send_end(s.leaves, *post, s.bytes));
  waiting = sent.waiting;
  return sent.end;
}

ReceiveRecord begin_receive(MPI_Comm comm, void* buf, int count, MPI_Datatype type, int source, int tag,
                            const Times& post, bool with_envelope) {
  ReceiveRecord r;
  r.post = post;
  r.source = source;
  r.wildcard = (source == MPI_ANY_SOURCE ? trace::kAnySource : 0) | (tag == MPI_ANY_TAG ? trace::kAnyTag : 0);
  r.plain = {buf, count, type};
  r.shadow = followed_receive(comm, count, type, source, tag);
  if (r.shadow && with_envelope) r.own = Envelope::around(buf, count, type);
  return r;
}

namespace {

// Our latest send to `source`; never sent: none.
SentFlight own_last_send(const Shadow& shadow, int source) {
  return source >= 0 && source < shadow.size ? shadow.last_send[source] : SentFlight{};
}

}  // namespace

// The halves' rule, then the floor of a message that crossed our latest send to its sender
// (timing/steps.hpp). Decided at the stamp: a send of ours started later, after the message
// arrived, cannot have crossed it, and the rule itself rejects one started after the message's
// virtual arrival.
void take_stamp(ReceiveRecord& r, MPI_Status& status) {
  if (!r.shadow || status.MPI_SOURCE == MPI_PROC_NULL) return;
  auto& envelope = r.envelope();
  if (!envelope.open(status) || r.stamped) return;
  // Whole elements only, as MPI_Get_count counts them: a partial element counts nothing.
  const MPI_Count size = layout_of(r.plain.type).size;
  const MPI_Count received = envelope.data_bytes();
  r.bytes = size > 0 && received % size == 0 ? received : 0;
  r.source = status.MPI_SOURCE;
  r.stamp = {envelope.header().send_start, envelope.header().rendezvous != 0};
  if (r.stamp.rendezvous) send_post_time(*r.shadow, status.MPI_SOURCE, status.MPI_TAG, r.post);
  r.stamped = true;
  const auto& rules = rules_with(r.shadow, r.source);
  r.halves_end = rules.receive_end(r.post, r.stamp.send_start, r.stamp.rendezvous, r.bytes);
  r.end = rules.crossed_receive_end(r.post, own_last_send(*r.shadow, r.source),
                                    {r.stamp.send_start, static_cast<double>(r.bytes)}, r.halves_end);
  to_trace([&](trace::RankWriter& t) {
    t.recv(shown(r.post), shown(event_time(r.end)), world_rank_of(*r.shadow, status.MPI_SOURCE), status.MPI_TAG,
           static_cast<std::uint64_t>(r.bytes), r.shadow->id, r.wildcard);
  });
}

Times end_receive(ReceiveRecord& r, MPI_Status& status, Times& waiting) {
  waiting = {};
  take_stamp(r, status);
  if (!r.stamped) return r.post;
  waiting = timing::receive_waiting(rules_with(r.shadow, r.source), r.post, r.halves_end, static_cast<double>(r.bytes));
  return r.end;
}

}  // namespace augur::revprof
