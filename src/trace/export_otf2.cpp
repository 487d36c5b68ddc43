// An OTF2 archive (Score-P's format, read by Vampir, Scalasca and otf2-print), written through
// the OTF2 library. Each rank is one location; states become Enter/Leave of a region per state
// name, messages MpiSend/MpiRecv, collectives MpiCollectiveBegin/End, phases regions of their own.
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

#include "trace/exporters.hpp"

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
      {"reduce_scatter_block", OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK}};
  auto it = ops.find(name);
  if (it == ops.end()) return std::nullopt;
  return it->second;
}

// One event on a location. At equal times, ends come before beginnings so regions nest:
// the order of `Step` is the order events at the same instant are written.
enum class Step : std::uint8_t {
  collective_end, recv, state_leave, phase_leave, phase_enter, state_enter, collective_begin, send
};

struct Item {
  OTF2_TimeStamp time;
  Step step;
  std::uint32_t index;
  bool operator<(const Item& o) const {
    return time != o.time ? time < o.time : step != o.step ? step < o.step : index < o.index;
  }
};

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
    try {
      write_archive();
    } catch (...) {
      OTF2_Archive_Close(archive_);
      throw;
    }
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
  template <class Interval>
  bool instant(const Interval& x) const { return ns(x.begin) == ns(x.end); }
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

  std::vector<Item> schedule(const RankTrace& rank) const {
    std::vector<Item> items;
    // A state or collective shorter than a nanosecond is written as Enter and Leave together
    // at its begin item, since sorting its two items apart would put the end first.
    for (std::uint32_t i = 0; i < rank.states.size(); ++i) {
      items.push_back({ns(rank.states[i].begin), Step::state_enter, i});
      if (!instant(rank.states[i])) items.push_back({ns(rank.states[i].end), Step::state_leave, i});
    }
    for (std::uint32_t i = 0; i < rank.sends.size(); ++i) items.push_back({ns(rank.sends[i].time), Step::send, i});
    for (std::uint32_t i = 0; i < rank.recvs.size(); ++i) items.push_back({ns(rank.recvs[i].end), Step::recv, i});
    for (std::uint32_t i = 0; i < rank.collectives.size(); ++i) {
      if (!collective_ops_[rank.collectives[i].op]) continue;
      items.push_back({ns(rank.collectives[i].begin), Step::collective_begin, i});
      if (!instant(rank.collectives[i])) items.push_back({ns(rank.collectives[i].end), Step::collective_end, i});
    }
    for (std::uint32_t i = 0; i < rank.phases.size(); ++i)
      items.push_back({ns(rank.phases[i].time), rank.phases[i].begin ? Step::phase_enter : Step::phase_leave, i});
    std::sort(items.begin(), items.end());
    return items;
  }

  std::uint64_t write_events(int r) {
    const RankTrace& rank = trace_.ranks[r];
    OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(archive_, r);
    if (!w) throw std::runtime_error("OTF2: cannot get an event writer");
    auto items = schedule(rank);
    for (const Item& it : items) write_item(w, rank, it);
    uint64_t written = 0;
    check(OTF2_EvtWriter_GetNumberOfEvents(w, &written), "count events");
    check(OTF2_Archive_CloseEvtWriter(archive_, w), "close event writer");
    return written;
  }

  void write_item(OTF2_EvtWriter* w, const RankTrace& rank, const Item& it) {
    switch (it.step) {
      case Step::state_enter:
        check(OTF2_EvtWriter_Enter(w, nullptr, it.time, region(rank.states[it.index])), "enter");
        if (instant(rank.states[it.index])) write_item(w, rank, {it.time, Step::state_leave, it.index});
        break;
      case Step::state_leave:
        check(OTF2_EvtWriter_Leave(w, nullptr, it.time, region(rank.states[it.index])), "leave");
        break;
      case Step::phase_enter:
        check(OTF2_EvtWriter_Enter(w, nullptr, it.time, rank.phases[it.index].name), "enter phase");
        break;
      case Step::phase_leave:
        check(OTF2_EvtWriter_Leave(w, nullptr, it.time, rank.phases[it.index].name), "leave phase");
        break;
      case Step::send: {
        const auto& m = rank.sends[it.index];
        check(OTF2_EvtWriter_MpiSend(w, nullptr, it.time, m.dst, comm_ref(m.comm), std::uint32_t(m.tag), m.bytes), "send");
        break;
      }
      case Step::recv: {
        const auto& m = rank.recvs[it.index];
        check(OTF2_EvtWriter_MpiRecv(w, nullptr, it.time, m.src, comm_ref(m.comm), std::uint32_t(m.tag), m.bytes), "recv");
        break;
      }
      case Step::collective_begin:
        check(OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, it.time), "collective begin");
        if (instant(rank.collectives[it.index])) write_item(w, rank, {it.time, Step::collective_end, it.index});
        break;
      case Step::collective_end: {
        const auto& c = rank.collectives[it.index];
        std::uint32_t root = c.root < 0 ? OTF2_UNDEFINED_UINT32 : std::uint32_t(c.root);
        check(OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, it.time, *collective_ops_[c.op], comm_ref(c.comm), root, c.bytes, c.bytes), "collective end");
        break;
      }
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
