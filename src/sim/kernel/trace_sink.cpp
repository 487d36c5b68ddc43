#include "sim/kernel/trace_sink.hpp"

#include <cstdint>

#include "trace/writer.hpp"

namespace augur::sim {

TraceRecorder::TraceRecorder(int nranks, trace::TraceHeader header) {
  trace_.header = std::move(header);
  trace_.ranks.resize(nranks);
}

void TraceRecorder::state(int rank, double begin, double end, trace::StateKind kind, std::string_view op) {
  const auto name = kind == trace::StateKind::mpi ? trace_.intern(op) : 0;
  trace_.ranks[rank].states.push_back({begin, end, name, kind});
}

void TraceRecorder::send(int rank, double t, int dst, int tag, double bytes, int comm) {
  trace_.ranks[rank].sends.push_back({t, dst, tag, comm, static_cast<std::uint64_t>(bytes)});
}

void TraceRecorder::recv(int rank, double post, double end, int src, int tag, double bytes, int comm,
                         std::uint8_t wildcard) {
  trace_.ranks[rank].recvs.push_back({post, end, src, tag, comm, static_cast<std::uint64_t>(bytes), wildcard});
}

void TraceRecorder::collective(int rank, double begin, double end, std::string_view op, int comm, int root,
                               double bytes) {
  trace_.ranks[rank].collectives.push_back({begin, end, trace_.intern(op), comm, root, static_cast<std::uint64_t>(bytes)});
}

void write_native_trace(const trace::Trace& t, const std::filesystem::path& dir) {
  for (int r = 0; r < t.nranks(); ++r) {
    trace::RankWriter out(dir, r, t.nranks(), t.header);
    const auto& rank = t.ranks[r];
    for (const auto& s : rank.states)
      out.state(s.begin, s.end, s.kind, s.kind == trace::StateKind::mpi ? out.name_id(t.names[s.op]) : 0);
    for (const auto& s : rank.sends) out.send(s.time, s.dst, s.tag, s.bytes, s.comm);
    for (const auto& m : rank.recvs) out.recv(m.post, m.end, m.src, m.tag, m.bytes, m.comm, m.wildcard);
    for (const auto& c : rank.collectives) out.collective(c.begin, c.end, out.name_id(t.names[c.op]), c.comm, c.root, c.bytes);
  }
}

}  // namespace augur::sim
