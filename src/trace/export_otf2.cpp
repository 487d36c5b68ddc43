// An OTF2 archive (Score-P's format, read by Vampir, Scalasca and otf2-print), written through
// the OTF2 library. Each rank is one location; states become Enter/Leave of a region per state
// name, and each call's records are written inside it (call_records.hpp): MpiSend or MpiIsend,
// MpiRecv, MpiIrecvRequest and, in the Wait that completed it, MpiIrecv or MpiIsendComplete;
// collectives MpiCollectiveBegin/End; phases regions of their own. Every event carries its exact
// time as an attribute, so augur's import (otf2_reader.hpp) reads the same doubles back.
// Communicators are recorded as ids only, so every communicator is defined over all ranks and
// peers are ranks of MPI_COMM_WORLD.
#include <otf2/otf2.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "trace/call_records.hpp"
#include "trace/exporters.hpp"
#include "trace/otf2_definitions.hpp"

namespace augur::trace {

namespace {

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }
OTF2_TimeStamp post_flush(void*, OTF2_FileType, OTF2_LocationRef) { return 0; }
OTF2_FlushCallbacks flush_callbacks = {pre_flush, post_flush};

void check(OTF2_ErrorCode code, std::string_view what) {
  if (code != OTF2_SUCCESS)
    throw std::runtime_error(fmt::format("OTF2: {}: {}", what, OTF2_Error_GetName(code)));
}

std::optional<OTF2_CollectiveOp> collective_op(std::string name) {
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  if (name.starts_with("mpi_")) name.erase(0, 4);
  static const std::map<std::string, OTF2_CollectiveOp> ops = {
      {"barrier", OTF2_COLLECTIVE_OP_BARRIER}, {"bcast", OTF2_COLLECTIVE_OP_BCAST},
      {"gather", OTF2_COLLECTIVE_OP_GATHER}, {"gatherv", OTF2_COLLECTIVE_OP_GATHERV},
      {"scatter", OTF2_COLLECTIVE_OP_SCATTER}, {"scatterv", OTF2_COLLECTIVE_OP_SCATTERV},
      {"allgather", OTF2_COLLECTIVE_OP_ALLGATHER}, {"allgatherv", OTF2_COLLECTIVE_OP_ALLGATHERV},
      {"alltoall", OTF2_COLLECTIVE_OP_ALLTOALL}, {"alltoallv", OTF2_COLLECTIVE_OP_ALLTOALLV},
      {"alltoallw", OTF2_COLLECTIVE_OP_ALLTOALLW}, {"allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE},
      {"reduce", OTF2_COLLECTIVE_OP_REDUCE}, {"reduce_scatter", OTF2_COLLECTIVE_OP_REDUCE_SCATTER},
      {"scan", OTF2_COLLECTIVE_OP_SCAN}, {"exscan", OTF2_COLLECTIVE_OP_EXSCAN},
      {"reduce_scatter_block", OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK},
      {"comm_dup", OTF2_COLLECTIVE_OP_CREATE_HANDLE}, {"comm_split", OTF2_COLLECTIVE_OP_CREATE_HANDLE},
      {"comm_create", OTF2_COLLECTIVE_OP_CREATE_HANDLE},
      // OTF2 has no collective for a window's fence; a barrier over the window's group is what it
      // synchronises, and the reader names the record after its call again.
      {"win_fence", OTF2_COLLECTIVE_OP_BARRIER}};
  auto it = ops.find(name);
  if (it == ops.end()) return std::nullopt;
  return it->second;
}

// What a rank's event stream is made of, in time order: states (each with the records of its
// call inside it), phase marks, and records no state took. At equal times a phase ends before
// another begins, and both before the states that begin then.
enum class BlockKind : std::uint8_t { phase_end, phase_begin, loose_send, loose_recv, loose_collective, state };

struct Block {
  double time;
  BlockKind kind;
  std::uint32_t index;
  bool operator<(const Block& o) const {
    return time != o.time ? time < o.time : kind != o.kind ? kind < o.kind : index < o.index;
  }
};

// OTF2 attributes the exporter defines: the exact time of every event, what a receive left open,
// and a request made towards MPI_PROC_NULL (docs/trace-format.md, "OTF2 input").
constexpr OTF2_AttributeRef kExactTime = 0, kWildcard = 1, kNullRequest = 2;

class Otf2Exporter {
 public:
  Otf2Exporter(const Trace& trace, std::filesystem::path dir)
      : trace_(trace), dir_(std::move(dir)), origin_(trace.start_time()) {
    for (std::size_t i = 0; i < trace.names.size(); ++i)
      collective_ops_.push_back(collective_op(trace.names[i]));
    for (const auto& r : trace.ranks) {
      for (const auto& m : r.sends) comms_.insert(m.comm);
      for (const auto& m : r.recvs) comms_.insert(m.comm);
      for (const auto& c : r.collectives) comms_.insert(c.comm);
    }
    if (comms_.empty()) comms_.insert(0);
  }

  Files run() {
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    archive_ = OTF2_Archive_Open(dir_.c_str(), "traces", OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20,
                                 OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!archive_) throw std::runtime_error(fmt::format("{}: cannot create OTF2 archive", dir_.string()));
    attributes_ = OTF2_AttributeList_New();
    try {
      write_archive();
    } catch (...) {
      OTF2_AttributeList_Delete(attributes_);
      OTF2_Archive_Close(archive_);
      throw;
    }
    OTF2_AttributeList_Delete(attributes_);
    check(OTF2_Archive_Close(archive_), "close archive");
    return {dir_ / "traces.otf2"};
  }

 private:
  OTF2_TimeStamp ns(double t) const {
    return static_cast<OTF2_TimeStamp>(std::max<long long>(0, std::llround((t - origin_) * 1e9)));
  }
  // Region ids: one per name (operations and phases), then COMPUTE, WAIT, IDLE.
  OTF2_RegionRef region(const State& s) const {
    auto base = static_cast<OTF2_RegionRef>(trace_.names.size());
    switch (s.kind) {
      case StateKind::mpi: return s.op;
      case StateKind::compute: return base;
      case StateKind::wait: return base + 1;
      case StateKind::idle: return base + 2;
    }
    return base;
  }
  OTF2_CommRef comm_ref(std::int32_t comm) const {
    return static_cast<OTF2_CommRef>(std::distance(comms_.begin(), comms_.find(comm)));
  }

  void write_archive() {
    check(OTF2_Archive_SetFlushCallbacks(archive_, &flush_callbacks, nullptr), "flush callbacks");
    check(OTF2_Archive_SetSerialCollectiveCallbacks(archive_), "collective callbacks");
    check(OTF2_Archive_SetCreator(archive_, "augur"), "creator");
    check(OTF2_Archive_OpenEvtFiles(archive_), "open event files");
    for (int r = 0; r < trace_.nranks(); ++r) event_counts_.push_back(write_events(r));
    check(OTF2_Archive_CloseEvtFiles(archive_), "close event files");
    check(OTF2_Archive_OpenDefFiles(archive_), "open definition files");
    for (int r = 0; r < trace_.nranks(); ++r) {
      OTF2_DefWriter* defs = OTF2_Archive_GetDefWriter(archive_, r);
      check(OTF2_Archive_CloseDefWriter(archive_, defs), "close definition writer");
    }
    check(OTF2_Archive_CloseDefFiles(archive_), "close definition files");
    write_definitions();
  }

  std::vector<Block> blocks(const RankTrace& rank, const RankCalls& calls) const {
    std::vector<Block> out;
    for (std::uint32_t i = 0; i < rank.states.size(); ++i) out.push_back({rank.states[i].begin, BlockKind::state, i});
    for (std::uint32_t i = 0; i < rank.phases.size(); ++i)
      out.push_back({rank.phases[i].time, rank.phases[i].begin ? BlockKind::phase_begin : BlockKind::phase_end, i});
    for (std::uint32_t i = 0; i < rank.sends.size(); ++i)
      if (!calls.send_taken[i]) out.push_back({rank.sends[i].time, BlockKind::loose_send, i});
    for (std::uint32_t i = 0; i < rank.recvs.size(); ++i)
      if (!calls.recv_taken[i]) out.push_back({rank.recvs[i].end, BlockKind::loose_recv, i});
    for (std::uint32_t i = 0; i < rank.collectives.size(); ++i)
      if (!calls.collective_taken[i] && collective_ops_[rank.collectives[i].op])
        out.push_back({rank.collectives[i].begin, BlockKind::loose_collective, i});
    std::stable_sort(out.begin(), out.end());
    return out;
  }

  std::uint64_t write_events(int r) {
    const RankTrace& rank = trace_.ranks[r];
    OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(archive_, r);
    if (!w) throw std::runtime_error("OTF2: cannot get an event writer");
    RankStream stream{w, rank, attach_records(trace_, rank), {}, 0};
    for (std::uint32_t i = 0; i < rank.requests.size(); ++i) stream.request_by_id[rank.requests[i].id] = i;
    for (const Block& b : blocks(rank, stream.calls)) write_block(stream, b);
    uint64_t written = 0;
    check(OTF2_EvtWriter_GetNumberOfEvents(w, &written), "count events");
    check(OTF2_Archive_CloseEvtWriter(archive_, w), "close event writer");
    return written;
  }

  struct RankStream {
    OTF2_EvtWriter* w;
    const RankTrace& rank;
    RankCalls calls;
    std::map<std::uint32_t, std::uint32_t> request_by_id;
    OTF2_TimeStamp last = 0;
  };

  // The tick of an event at `t`: never before the stream's last, as OTF2 requires; the exact time
  // goes with it as an attribute.
  OTF2_TimeStamp at(RankStream& s, double t, std::uint8_t wildcard = 0) {
    s.last = std::max(s.last, ns(t));
    OTF2_AttributeList_RemoveAllAttributes(attributes_);
    OTF2_AttributeList_AddDouble(attributes_, kExactTime, t);
    if (wildcard) OTF2_AttributeList_AddUint8(attributes_, kWildcard, wildcard);
    return s.last;
  }

  void write_send(RankStream& s, std::uint32_t i, std::optional<std::uint32_t> request) {
    const auto& m = s.rank.sends[i];
    const auto tick = at(s, m.time);
    if (request)
      check(OTF2_EvtWriter_MpiIsend(s.w, attributes_, tick, m.dst, comm_ref(m.comm), std::uint32_t(m.tag), m.bytes,
                                    s.rank.requests[*request].id), "isend");
    else
      check(OTF2_EvtWriter_MpiSend(s.w, attributes_, tick, m.dst, comm_ref(m.comm), std::uint32_t(m.tag), m.bytes), "send");
  }

  void write_recv(RankStream& s, std::uint32_t i, std::optional<std::uint32_t> request) {
    const auto& m = s.rank.recvs[i];
    const auto tick = at(s, m.end, m.wildcard);
    if (request)
      check(OTF2_EvtWriter_MpiIrecv(s.w, attributes_, tick, m.src, comm_ref(m.comm), std::uint32_t(m.tag), m.bytes,
                                    s.rank.requests[*request].id), "irecv");
    else
      check(OTF2_EvtWriter_MpiRecv(s.w, attributes_, tick, m.src, comm_ref(m.comm), std::uint32_t(m.tag), m.bytes), "recv");
  }

  void write_collective(RankStream& s, std::uint32_t i, bool begin) {
    const auto& c = s.rank.collectives[i];
    if (!collective_ops_[c.op]) return;  // a record of an operation OTF2 has no collective for
    if (begin) return check(OTF2_EvtWriter_MpiCollectiveBegin(s.w, attributes_, at(s, c.begin)), "collective begin");
    std::uint32_t root = c.root < 0 ? OTF2_UNDEFINED_UINT32 : std::uint32_t(c.root);
    check(OTF2_EvtWriter_MpiCollectiveEnd(s.w, attributes_, at(s, c.end), *collective_ops_[c.op], comm_ref(c.comm), root,
                                          c.bytes, c.bytes), "collective end");
  }

  // A Wait's or Test's completion: an Isend's request, or an Irecv's with its message.
  void write_completion(RankStream& s, double call_begin, std::uint32_t completion) {
    auto it = s.request_by_id.find(s.rank.completions[completion].id);
    if (it == s.request_by_id.end()) return;
    const auto request = it->second;
    for (std::uint32_t i = 0; i < s.rank.recvs.size(); ++i)
      if (s.calls.request_of_recv[i] == request) return write_recv(s, i, request);
    check(OTF2_EvtWriter_MpiIsendComplete(s.w, attributes_, at(s, call_begin), s.rank.requests[request].id), "isend complete");
  }

  void write_state(RankStream& s, std::uint32_t i) {
    const State& st = s.rank.states[i];
    const CallRecords& call = s.calls.of_state[i];
    const auto enter = at(s, st.begin);
    if (call.request && s.rank.requests[*call.request].peer == kNullPeer)
      OTF2_AttributeList_AddUint64(attributes_, kNullRequest, s.rank.requests[*call.request].id);
    check(OTF2_EvtWriter_Enter(s.w, attributes_, enter, region(st)), "enter");
    // An Irecv whose completion no Wait records keeps its message as a plain receive.
    const bool completed = call.recv && call.recv_request && completed_requests(s).count(*call.recv_request);
    if (call.recv && call.recv_request)
      check(OTF2_EvtWriter_MpiIrecvRequest(s.w, attributes_, at(s, st.begin), s.rank.requests[*call.recv_request].id),
            "irecv request");
    if (call.send) write_send(s, *call.send, s.calls.request_of_send[*call.send]);
    if (call.collective) write_collective(s, *call.collective, true);
    for (auto c : call.completions) write_completion(s, st.begin, c);
    if (call.recv && !completed) write_recv(s, *call.recv, std::nullopt);
    if (call.collective) write_collective(s, *call.collective, false);
    check(OTF2_EvtWriter_Leave(s.w, attributes_, at(s, st.end), region(st)), "leave");
  }

  const std::set<std::uint32_t>& completed_requests(RankStream& s) {
    if (completed_.first != &s.rank) {
      completed_ = {&s.rank, {}};
      for (const auto& call : s.calls.of_state)
        for (auto c : call.completions)
          if (auto it = s.request_by_id.find(s.rank.completions[c].id); it != s.request_by_id.end())
            completed_.second.insert(it->second);
    }
    return completed_.second;
  }

  void write_block(RankStream& s, const Block& b) {
    switch (b.kind) {
      case BlockKind::state: return write_state(s, b.index);
      case BlockKind::phase_begin:
        return check(OTF2_EvtWriter_Enter(s.w, attributes_, at(s, b.time), s.rank.phases[b.index].name), "enter phase");
      case BlockKind::phase_end:
        return check(OTF2_EvtWriter_Leave(s.w, attributes_, at(s, b.time), s.rank.phases[b.index].name), "leave phase");
      case BlockKind::loose_send: return write_send(s, b.index, std::nullopt);
      case BlockKind::loose_recv: return write_recv(s, b.index, std::nullopt);
      case BlockKind::loose_collective:
        write_collective(s, b.index, true);
        return write_collective(s, b.index, false);
    }
  }

  OTF2_StringRef string(OTF2_GlobalDefWriter* defs, const std::string& s) {
    auto [it, inserted] = strings_.try_emplace(s, static_cast<OTF2_StringRef>(strings_.size()));
    if (inserted) check(OTF2_GlobalDefWriter_WriteString(defs, it->second, s.c_str()), "string");
    return it->second;
  }

  void write_definitions() {
    OTF2_GlobalDefWriter* defs = OTF2_Archive_GetGlobalDefWriter(archive_);
    if (!defs) throw std::runtime_error("OTF2: cannot get the global definition writer");
    auto length = ns(trace_.end_time());
    check(OTF2_GlobalDefWriter_WriteClockProperties(defs, 1000000000, 0, length, OTF2_UNDEFINED_TIMESTAMP), "clock");
    check(OTF2_GlobalDefWriter_WriteParadigm(defs, OTF2_PARADIGM_MPI, string(defs, "MPI"), OTF2_PARADIGM_CLASS_PROCESS), "paradigm");
    check(OTF2_GlobalDefWriter_WriteAttribute(defs, kExactTime, string(defs, kExactTimeAttribute),
                                              string(defs, "the event's time in seconds, as augur's trace has it"),
                                              OTF2_TYPE_DOUBLE), "attribute");
    check(OTF2_GlobalDefWriter_WriteAttribute(defs, kWildcard, string(defs, kWildcardAttribute),
                                              string(defs, "what the receive left open: 1 the source, 2 the tag"),
                                              OTF2_TYPE_UINT8), "attribute");
    check(OTF2_GlobalDefWriter_WriteAttribute(defs, kNullRequest, string(defs, kNullRequestAttribute),
                                              string(defs, "a request the call made towards MPI_PROC_NULL"),
                                              OTF2_TYPE_UINT64), "attribute");
    write_regions(defs);
    std::string machine = trace_.header.machine.empty() ? "machine" : trace_.header.machine;
    check(OTF2_GlobalDefWriter_WriteSystemTreeNode(defs, 0, string(defs, machine), string(defs, "machine"), OTF2_UNDEFINED_SYSTEM_TREE_NODE), "system tree");
    std::vector<std::uint64_t> members;
    for (int r = 0; r < trace_.nranks(); ++r) {
      auto name = string(defs, fmt::format("rank {}", r));
      check(OTF2_GlobalDefWriter_WriteLocationGroup(defs, r, name, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, OTF2_UNDEFINED_LOCATION_GROUP), "location group");
      check(OTF2_GlobalDefWriter_WriteLocation(defs, r, name, OTF2_LOCATION_TYPE_CPU_THREAD, event_counts_[r], r), "location");
      members.push_back(r);
    }
    write_communicators(defs, members);
    check(OTF2_Archive_CloseGlobalDefWriter(archive_, defs), "close global definitions");
  }

  void write_regions(OTF2_GlobalDefWriter* defs) {
    auto empty = string(defs, "");
    auto write = [&](OTF2_RegionRef id, const std::string& name, OTF2_RegionRole role, OTF2_Paradigm paradigm) {
      auto s = string(defs, name);
      check(OTF2_GlobalDefWriter_WriteRegion(defs, id, s, s, empty, role, paradigm, OTF2_REGION_FLAG_NONE, empty, 0, 0), "region");
    };
    std::vector<bool> is_phase(trace_.names.size(), false);
    for (const auto& r : trace_.ranks)
      for (const auto& p : r.phases) is_phase[p.name] = true;
    for (std::size_t i = 0; i < trace_.names.size(); ++i)
      write(static_cast<OTF2_RegionRef>(i), trace_.names[i], is_phase[i] ? OTF2_REGION_ROLE_CODE : OTF2_REGION_ROLE_FUNCTION,
            is_phase[i] ? OTF2_PARADIGM_USER : OTF2_PARADIGM_MPI);
    auto base = static_cast<OTF2_RegionRef>(trace_.names.size());
    write(base, "COMPUTE", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER);
    write(base + 1, "WAIT", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI);
    write(base + 2, "IDLE", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER);
  }

  void write_communicators(OTF2_GlobalDefWriter* defs, const std::vector<std::uint64_t>& members) {
    auto empty = string(defs, "");
    check(OTF2_GlobalDefWriter_WriteGroup(defs, 0, empty, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                          OTF2_GROUP_FLAG_NONE, members.size(), members.data()), "locations group");
    std::vector<std::uint64_t> ranks(members.size());
    for (std::size_t i = 0; i < ranks.size(); ++i) ranks[i] = i;
    check(OTF2_GlobalDefWriter_WriteGroup(defs, 1, empty, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                          OTF2_GROUP_FLAG_NONE, ranks.size(), ranks.data()), "communicator group");
    for (std::int32_t comm : comms_) {
      auto name = string(defs, comm == 0 ? std::string("MPI_COMM_WORLD") : fmt::format("communicator {}", comm));
      check(OTF2_GlobalDefWriter_WriteComm(defs, comm_ref(comm), name, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE), "communicator");
    }
  }

  const Trace& trace_;
  std::filesystem::path dir_;
  double origin_;
  OTF2_Archive* archive_ = nullptr;
  OTF2_AttributeList* attributes_ = nullptr;
  std::pair<const RankTrace*, std::set<std::uint32_t>> completed_{nullptr, {}};
  std::vector<std::optional<OTF2_CollectiveOp>> collective_ops_;
  std::set<std::int32_t> comms_;
  std::vector<std::uint64_t> event_counts_;
  std::map<std::string, OTF2_StringRef> strings_;
};

}  // namespace

Files export_otf2(const Trace& trace, const std::filesystem::path& out) {
  return Otf2Exporter(trace, out).run();
}

}  // namespace augur::trace
