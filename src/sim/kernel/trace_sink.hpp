#pragma once
// Where the simulator reports what each rank did, in the reverse profiler's vocabulary (states
// per call, sends, receives, collectives), so a simulated run is a native trace like any other.
#include <filesystem>
#include <string_view>

#include "trace/trace.hpp"

namespace augur::sim {

class TraceSink {
 public:
  virtual ~TraceSink() = default;
  virtual void state(int rank, double begin, double end, trace::StateKind kind, std::string_view op) = 0;
  virtual void send(int rank, double t, int dst, int tag, double bytes, int comm) = 0;
  virtual void recv(int rank, double post, double end, int src, int tag, double bytes, int comm,
                    std::uint8_t wildcard) = 0;  // wildcard: trace::kAnySource, kAnyTag
  virtual void collective(int rank, double begin, double end, std::string_view op, int comm, int root,
                          double bytes) = 0;
};

// Keeps the events in memory as a trace::Trace (mode `simulated`).
class TraceRecorder final : public TraceSink {
 public:
  TraceRecorder(int nranks, trace::TraceHeader header);
  void state(int rank, double begin, double end, trace::StateKind kind, std::string_view op) override;
  void send(int rank, double t, int dst, int tag, double bytes, int comm) override;
  void recv(int rank, double post, double end, int src, int tag, double bytes, int comm,
            std::uint8_t wildcard) override;
  void collective(int rank, double begin, double end, std::string_view op, int comm, int root, double bytes) override;

  const trace::Trace& trace() const { return trace_; }

 private:
  trace::Trace trace_;
};

// Writes `trace` as a native trace directory (one rank file each, docs/trace-format.md).
void write_native_trace(const trace::Trace& trace, const std::filesystem::path& dir);

}  // namespace augur::sim
