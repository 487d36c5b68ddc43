// Paraver's trace: .prv records (1 state, 2 event, 3 communication) sorted by time, .pcf names,
// .row object names. Times are integer nanoseconds since the trace began. Written by hand: BSC
// publishes no library for writing Paraver files, only the format description.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <stdexcept>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "trace/exporters.hpp"
#include "trace/messages.hpp"

namespace augur::trace {

namespace {

constexpr int kMpiEventType = 50000001;    // value: operation name index + 1, 0 when it ends
constexpr int kPhaseEventType = 90000001;  // value: phase name index + 1, 0 when it ends

int paraver_state(StateKind kind) {
  switch (kind) {
    case StateKind::idle: return 0;
    case StateKind::compute: return 1;
    case StateKind::wait: return 3;
    case StateKind::mpi: return 13;
  }
  return 0;
}

enum class RecordKind : std::uint8_t { state, mpi_begin, mpi_end, phase, message };

// A record to write, kept small so ten million of them sort quickly.
struct Pending {
  std::int64_t time;
  std::uint32_t rank, index;
  RecordKind kind;
};

class ParaverExporter {
 public:
  ParaverExporter(const Trace& trace, std::filesystem::path base)
      : trace_(trace), base_(std::move(base)), origin_(trace.start_time()), pairing_(pair_messages(trace)) {}

  Files run() {
    collect();
    std::stable_sort(records_.begin(), records_.end(),
                     [](const Pending& a, const Pending& b) { return a.time < b.time; });
    auto prv = with_extension(".prv");
    write_prv(prv);
    auto pcf = with_extension(".pcf");
    write_pcf(pcf);
    auto row = with_extension(".row");
    write_row(row);
    return {prv, pcf, row};
  }

 private:
  std::filesystem::path with_extension(const char* ext) const {
    auto p = base_;
    return p.replace_extension(ext);
  }
  std::int64_t ns(double t) const { return std::llround((t - origin_) * 1e9); }

  void collect() {
    for (std::uint32_t r = 0; r < trace_.ranks.size(); ++r) {
      const auto& rank = trace_.ranks[r];
      for (std::uint32_t i = 0; i < rank.states.size(); ++i) {
        const auto& s = rank.states[i];
        records_.push_back({ns(s.begin), r, i, RecordKind::state});
        if (s.kind != StateKind::mpi) continue;
        records_.push_back({ns(s.begin), r, i, RecordKind::mpi_begin});
        records_.push_back({ns(s.end), r, i, RecordKind::mpi_end});
      }
      for (std::uint32_t i = 0; i < rank.phases.size(); ++i)
        records_.push_back({ns(rank.phases[i].time), r, i, RecordKind::phase});
    }
    for (std::uint32_t m = 0; m < pairing_.messages.size(); ++m) {
      const auto& msg = pairing_.messages[m];
      records_.push_back({ns(trace_.ranks[msg.src].sends[msg.send_index].time), 0, m, RecordKind::message});
    }
  }

  void write_record(fmt::memory_buffer& b, const Pending& p) {
    auto out = std::back_inserter(b);
    unsigned task = p.rank + 1;
    switch (p.kind) {
      case RecordKind::state: {
        const auto& s = trace_.ranks[p.rank].states[p.index];
        fmt::format_to(out, "1:{0}:1:{0}:1:{1}:{2}:{3}\n", task, ns(s.begin), ns(s.end), paraver_state(s.kind));
        break;
      }
      case RecordKind::mpi_begin:
        fmt::format_to(out, "2:{0}:1:{0}:1:{1}:{2}:{3}\n", task, p.time, kMpiEventType,
                       trace_.ranks[p.rank].states[p.index].op + 1);
        break;
      case RecordKind::mpi_end:
        fmt::format_to(out, "2:{0}:1:{0}:1:{1}:{2}:0\n", task, p.time, kMpiEventType);
        break;
      case RecordKind::phase: {
        const auto& ph = trace_.ranks[p.rank].phases[p.index];
        fmt::format_to(out, "2:{0}:1:{0}:1:{1}:{2}:{3}\n", task, p.time, kPhaseEventType,
                       ph.begin ? ph.name + 1 : 0);
        break;
      }
      case RecordKind::message: write_message(b, pairing_.messages[p.index]); break;
    }
  }

  // 3:cpu:ptask:task:thread:logical send:physical send:cpu:ptask:task:thread:logical recv:physical recv:size:tag
  void write_message(fmt::memory_buffer& b, const Message& m) {
    const auto& s = trace_.ranks[m.src].sends[m.send_index];
    const auto& r = trace_.ranks[m.dst].recvs[m.recv_index];
    fmt::format_to(std::back_inserter(b), "3:{0}:1:{0}:1:{1}:{1}:{2}:1:{2}:1:{3}:{4}:{5}:{6}\n",
                   m.src + 1, ns(s.time), m.dst + 1, ns(r.post), ns(r.end), s.bytes, s.tag);
  }

  std::string header() const {
    auto end = std::max<std::int64_t>(0, ns(trace_.end_time()));
    std::string tasks;
    for (int r = 0; r < trace_.nranks(); ++r) tasks += fmt::format("{}1:1", r ? "," : "");
    auto now = std::chrono::system_clock::now();
    return fmt::format("#Paraver ({:%d/%m/%y at %H:%M}):{}_ns:1({}):1:{}({})\n",
                       fmt::localtime(std::chrono::system_clock::to_time_t(now)), end,
                       trace_.nranks(), trace_.nranks(), tasks);
  }

  void write_prv(const std::filesystem::path& path) {
    std::ofstream out(path, std::ios::binary);
    if (!out) throw std::runtime_error(fmt::format("{}: cannot create", path.string()));
    out << header();
    fmt::memory_buffer b;
    for (const auto& p : records_) {
      write_record(b, p);
      if (b.size() > (1 << 20)) {
        out.write(b.data(), static_cast<std::streamsize>(b.size()));
        b.clear();
      }
    }
    out.write(b.data(), static_cast<std::streamsize>(b.size()));
    if (!out) throw std::runtime_error(fmt::format("{}: write failed", path.string()));
  }

  void write_pcf(const std::filesystem::path& path) const {
    std::ofstream out(path);
    out << "DEFAULT_OPTIONS\n\nLEVEL               THREAD\nUNITS               NANOSEC\n\n"
           "STATES\n0    Idle\n1    Running\n3    Waiting a message\n13   MPI operation\n\n"
           "STATES_COLOR\n0    {117,195,255}\n1    {0,0,255}\n3    {255,0,0}\n13   {255,174,185}\n\n";
    for (auto [type, title] : {std::pair{kMpiEventType, "MPI operation"}, {kPhaseEventType, "User phase"}}) {
      out << fmt::format("EVENT_TYPE\n0    {}    {}\nVALUES\n0      End\n", type, title);
      for (std::size_t i = 0; i < trace_.names.size(); ++i)
        out << fmt::format("{:<6} {}\n", i + 1, trace_.names[i]);
      out << "\n";
    }
    if (!out) throw std::runtime_error(fmt::format("{}: write failed", path.string()));
  }

  void write_row(const std::filesystem::path& path) const {
    std::ofstream out(path);
    int n = trace_.nranks();
    out << fmt::format("LEVEL CPU SIZE {}\n", n);
    for (int r = 0; r < n; ++r) out << fmt::format("CPU {}\n", r + 1);
    out << "\nLEVEL NODE SIZE 1\nnode 1\n\n" << fmt::format("LEVEL THREAD SIZE {}\n", n);
    for (int r = 0; r < n; ++r) out << fmt::format("rank {}\n", r);
    if (!out) throw std::runtime_error(fmt::format("{}: write failed", path.string()));
  }

  const Trace& trace_;
  std::filesystem::path base_;
  double origin_;
  MessagePairing pairing_;
  std::vector<Pending> records_;
};

}  // namespace

Files export_paraver(const Trace& trace, const std::filesystem::path& out) {
  return ParaverExporter(trace, out).run();
}

}  // namespace augur::trace
