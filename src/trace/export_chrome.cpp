// Chrome Trace Event JSON, the format Perfetto and chrome://tracing import. Written by hand
// rather than through nlohmann::json because a ten-million-event trace would need the whole
// document in memory; each event is one formatted line appended to a buffered file.
#include <cstdio>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "trace/exporters.hpp"
#include "trace/messages.hpp"

namespace augur::trace {

namespace {

class ChunkedJsonFile {
 public:
  ChunkedJsonFile(std::filesystem::path base, std::uint64_t chunk_bytes, std::string preamble)
      : base_(std::move(base)), chunk_bytes_(chunk_bytes), preamble_(std::move(preamble)) {
    open_next();
  }
  ~ChunkedJsonFile() {
    if (file_) std::fclose(file_);
  }

  // Starts a new chunk first when this event would push the current one past the limit.
  void event(std::string_view json) {
    if (written_ + buffer_.size() + json.size() > chunk_bytes_ && events_in_chunk_ > 0) {
      close_current();
      open_next();
    }
    if (events_in_chunk_++ > 0) buffer_.push_back(',');
    buffer_.push_back('\n');
    buffer_.append(json);
    if (buffer_.size() > (1 << 20)) drain();
  }
  std::size_t chunk() const { return files_.size() - 1; }
  Files finish() {
    close_current();
    return files_;
  }

 private:
  void open_next() {
    auto path = base_;
    if (!files_.empty())
      path.replace_filename(fmt::format("{}.{}{}", base_.stem().string(), files_.size(),
                                        base_.extension().string()));
    file_ = std::fopen(path.c_str(), "wb");
    if (!file_) throw std::runtime_error(fmt::format("{}: cannot create", path.string()));
    files_.push_back(path);
    written_ = 0;
    events_in_chunk_ = 0;
    buffer_.append(preamble_);
  }
  void drain() {
    if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size())
      throw std::runtime_error(fmt::format("{}: write failed", files_.back().string()));
    written_ += buffer_.size();
    buffer_.clear();
  }
  void close_current() {
    buffer_.append("\n]}\n");
    drain();
    std::fclose(std::exchange(file_, nullptr));
  }

  std::filesystem::path base_;
  std::uint64_t chunk_bytes_;
  std::string preamble_;
  std::FILE* file_ = nullptr;
  Files files_;
  std::uint64_t written_ = 0, events_in_chunk_ = 0;
  std::string buffer_;
};

std::string json_string(std::string_view s) { return nlohmann::json(std::string(s)).dump(); }

constexpr int kStatesProcess = 0;
constexpr int kPhasesProcess = 1;

class ChromeExporter {
 public:
  ChromeExporter(const Trace& trace, const std::filesystem::path& out, std::uint64_t chunk_bytes)
      : trace_(trace),
        origin_(trace.start_time()),
        pairing_(pair_messages(trace)),
        out_(out, chunk_bytes, preamble(trace)) {
    for (const auto& name : trace.names) quoted_names_.push_back(json_string(name));
    for (auto kind : {"COMPUTE", "WAIT", "IDLE"}) quoted_kinds_.push_back(json_string(kind));
  }

  Files run() {
    process_names();
    for (int r = 0; r < trace_.nranks(); ++r) {
      metadata(r);
      states(r);
      messages(r);
      collectives(r);
      phases(r);
    }
    return out_.finish();
  }

 private:
  static std::string preamble(const Trace& t) {
    nlohmann::json other = {{"mode", to_string(t.header.mode)}, {"machine", t.header.machine},
                            {"clock", t.header.clock}, {"program", t.header.program}};
    return fmt::format("{{\"displayTimeUnit\":\"ns\",\"otherData\":{},\"traceEvents\":[", other.dump());
  }
  // Microseconds since the trace began, to the nanosecond.
  double us(double t) const { return (t - origin_) * 1e6; }

  const std::string& label(const State& s) const {
    switch (s.kind) {
      case StateKind::mpi: return quoted_names_[s.op];
      case StateKind::compute: return quoted_kinds_[0];
      case StateKind::wait: return quoted_kinds_[1];
      case StateKind::idle: return quoted_kinds_[2];
    }
    return quoted_kinds_[0];
  }

  template <class... Args>
  void emit(fmt::format_string<Args...> f, Args&&... args) {
    line_.clear();
    fmt::format_to(std::back_inserter(line_), f, std::forward<Args>(args)...);
    out_.event(std::string_view(line_.data(), line_.size()));
  }

  void process_names() {
    emit(R"({{"ph":"M","pid":{},"name":"process_name","args":{{"name":"ranks, {}"}}}})",
         kStatesProcess, to_string(trace_.header.mode));
    emit(R"({{"ph":"M","pid":{},"name":"process_name","args":{{"name":"phases"}}}})", kPhasesProcess);
  }

  void metadata(int r) {
    emit(R"({{"ph":"M","pid":{},"tid":{},"name":"thread_name","args":{{"name":"rank {}"}}}})",
         kStatesProcess, r, r);
    emit(R"({{"ph":"M","pid":{},"tid":{},"name":"thread_name","args":{{"name":"rank {}"}}}})",
         kPhasesProcess, r, r);
  }

  void states(int r) {
    for (const State& s : trace_.ranks[r].states)
      emit(R"({{"ph":"X","pid":{},"tid":{},"ts":{:.3f},"dur":{:.3f},"name":{},"cat":"{}"}})",
           kStatesProcess, r, us(s.begin), us(s.end) - us(s.begin), label(s), to_string(s.kind));
  }

  // Flow arrows: "s" at the send, "f" at the receive's end bound to the enclosing slice.
  void messages(int r) {
    const auto& rank = trace_.ranks[r];
    for (std::size_t i = 0; i < rank.sends.size(); ++i) {
      auto m = pairing_.message_of_send[r][i];
      if (m == kUnmatched) continue;
      const auto& s = rank.sends[i];
      emit(R"({{"ph":"s","pid":{},"tid":{},"ts":{:.3f},"id":{},"name":"message","cat":"message","args":{{"dst":{},"tag":{},"bytes":{},"comm":{}}}}})",
           kStatesProcess, r, us(s.time), m, s.dst, s.tag, s.bytes, s.comm);
    }
    for (std::size_t i = 0; i < rank.recvs.size(); ++i) {
      auto m = pairing_.message_of_recv[r][i];
      if (m == kUnmatched) continue;
      emit(R"({{"ph":"f","bp":"e","pid":{},"tid":{},"ts":{:.3f},"id":{},"name":"message","cat":"message"}})",
           kStatesProcess, r, us(rank.recvs[i].end), m);
    }
  }

  void collectives(int r) {
    for (const auto& c : trace_.ranks[r].collectives)
      emit(R"({{"ph":"i","s":"t","pid":{},"tid":{},"ts":{:.3f},"name":{},"cat":"collective","args":{{"comm":{},"root":{},"bytes":{},"end_us":{:.3f}}}}})",
           kStatesProcess, r, us(c.begin), quoted_names_[c.op], c.comm, c.root, c.bytes, us(c.end));
  }

  void phases(int r) {
    for (const auto& p : trace_.ranks[r].phases)
      emit(R"({{"ph":"{}","pid":{},"tid":{},"ts":{:.3f},"name":{},"cat":"phase"}})",
           p.begin ? "B" : "E", kPhasesProcess, r, us(p.time), quoted_names_[p.name]);
  }

  const Trace& trace_;
  double origin_;
  MessagePairing pairing_;
  ChunkedJsonFile out_;
  std::vector<std::string> quoted_names_, quoted_kinds_;
  fmt::memory_buffer line_;
};

}  // namespace

Files export_chrome_json(const Trace& trace, const std::filesystem::path& out, std::uint64_t chunk_bytes) {
  return ChromeExporter(trace, out, chunk_bytes).run();
}

}  // namespace augur::trace
