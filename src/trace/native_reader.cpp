#include "trace/native_reader.hpp"

#include <cmath>
#include <cstring>
#include <fstream>
#include <regex>
#include <stdexcept>

#include <fmt/format.h>

namespace augur::trace {

namespace {

namespace fs = std::filesystem;

// A cursor over one rank file's bytes; every read is bounds-checked by its caller via `left`.
class Cursor {
 public:
  explicit Cursor(std::string_view bytes) : bytes_(bytes) {}
  std::size_t offset() const { return offset_; }
  std::size_t left() const { return bytes_.size() - offset_; }
  template <class T>
  T take() {
    T value;
    std::memcpy(&value, bytes_.data() + offset_, sizeof value);
    offset_ += sizeof value;
    return value;
  }
  std::string_view take_chars(std::size_t n) {
    auto s = bytes_.substr(offset_, n);
    offset_ += n;
    return s;
  }
  bool take_string(std::string& out) {
    if (left() < 2) return false;
    auto n = take<std::uint16_t>();
    if (left() < n) return false;
    out = take_chars(n);
    return true;
  }

 private:
  std::string_view bytes_;
  std::size_t offset_ = 0;
};

struct RankHeader {
  TraceHeader run;
  int rank = 0, nranks = 0;
};

std::string read_header(Cursor& in, RankHeader& out) {
  constexpr std::size_t fixed = sizeof kMagic + 2 + 1 + 1 + 4 + 4;
  if (in.left() < fixed) return "file too short for a trace header";
  if (in.take_chars(sizeof kMagic) != std::string_view(kMagic, sizeof kMagic))
    return "not an augur trace (bad magic bytes)";
  auto version = in.take<std::uint16_t>();
  if (version == 0 || version > kFormatVersion)
    return fmt::format("format version {} is not supported (this augur reads up to {})", version,
                       kFormatVersion);
  auto mode = in.take<std::uint8_t>();
  if (mode > static_cast<std::uint8_t>(TraceMode::simulated))
    return fmt::format("unknown trace mode {}", mode);
  out.run.mode = static_cast<TraceMode>(mode);
  in.take<std::uint8_t>();
  out.rank = in.take<std::int32_t>();
  out.nranks = in.take<std::int32_t>();
  if (out.nranks < 1 || out.nranks > kMaxRanks || out.rank < 0 || out.rank >= out.nranks)
    return fmt::format("rank {} of {} is impossible", out.rank, out.nranks);
  if (!in.take_string(out.run.machine) || !in.take_string(out.run.clock) ||
      !in.take_string(out.run.program))
    return "header strings are truncated";
  return {};
}

bool finite(double a, double b) { return std::isfinite(a) && std::isfinite(b); }

// Decodes the records after the header into one rank; stops at the first damaged record.
class RecordDecoder {
 public:
  RecordDecoder(Cursor& in, Trace& trace, RankTrace& rank, int nranks)
      : in_(in), trace_(trace), rank_(rank), nranks_(nranks) {}

  // Returns the reason decoding stopped early, or "" when the file ended cleanly.
  std::string run() {
    while (in_.left() > 0) {
      record_start_ = in_.offset();
      auto type = static_cast<RecordType>(in_.take<std::uint8_t>());
      std::string error = decode(type);
      if (!error.empty()) return error;
    }
    return {};
  }
  std::size_t record_start() const { return record_start_; }

 private:
  std::string need(std::size_t record_size, std::string_view what) {
    if (in_.left() >= record_size - 1) return {};
    return fmt::format("truncated {} record ({} bytes needed, {} left)", what, record_size,
                       in_.left() + 1);
  }

  std::string decode(RecordType type) {
    switch (type) {
      case RecordType::name: return decode_name();
      case RecordType::state: return decode_state();
      case RecordType::send: return decode_send();
      case RecordType::recv: return decode_recv(false);
      case RecordType::wildcard_recv: return decode_recv(true);
      case RecordType::request: return decode_request(rank_.requests, true);
      case RecordType::complete: return decode_request(rank_.completions, false);
      case RecordType::collective: return decode_collective();
      case RecordType::phase_begin: return decode_phase(true);
      case RecordType::phase_end: return decode_phase(false);
    }
    return fmt::format("unknown record type {}", static_cast<int>(type));
  }

  std::string decode_name() {
    if (auto e = need(kNameRecordFixedSize, "name"); !e.empty()) return e;
    auto id = in_.take<NameId>();
    auto length = in_.take<std::uint16_t>();
    if (id != local_names_.size()) return fmt::format("name id {} out of sequence", id);
    if (length > kMaxNameLength || in_.left() < length) return "truncated name record";
    local_names_.push_back(trace_.intern(in_.take_chars(length)));
    return {};
  }

  std::string global_name(NameId id, NameIndex& out) {
    if (id >= local_names_.size()) return fmt::format("name id {} was never defined", id);
    out = local_names_[id];
    return {};
  }

  std::string decode_state() {
    if (auto e = need(kStateRecordSize, "state"); !e.empty()) return e;
    auto kind = in_.take<std::uint8_t>();
    auto op = in_.take<NameId>();
    State s{in_.take<double>(), in_.take<double>(), 0, static_cast<StateKind>(kind)};
    if (kind > static_cast<std::uint8_t>(StateKind::idle))
      return fmt::format("unknown state kind {}", kind);
    if (!finite(s.begin, s.end) || s.end < s.begin) return "state ends before it begins";
    if (s.kind == StateKind::mpi)
      if (auto e = global_name(op, s.op); !e.empty()) return e;
    rank_.states.push_back(s);
    return {};
  }

  std::string check_peer(std::int32_t peer) {
    if (peer >= 0 && peer < nranks_) return {};
    return fmt::format("peer rank {} outside 0..{}", peer, nranks_ - 1);
  }

  std::string decode_send() {
    if (auto e = need(kSendRecordSize, "send"); !e.empty()) return e;
    SendEvent m;
    m.time = in_.take<double>();
    m.dst = in_.take<std::int32_t>();
    m.tag = in_.take<std::int32_t>();
    m.bytes = in_.take<std::uint64_t>();
    m.comm = in_.take<std::int32_t>();
    if (!std::isfinite(m.time)) return "send time is not a number";
    if (auto e = check_peer(m.dst); !e.empty()) return e;
    rank_.sends.push_back(m);
    return {};
  }

  std::string decode_recv(bool wildcard) {
    if (auto e = need(wildcard ? kWildcardRecvRecordSize : kRecvRecordSize, "receive"); !e.empty()) return e;
    RecvEvent m;
    m.post = in_.take<double>();
    m.end = in_.take<double>();
    m.src = in_.take<std::int32_t>();
    m.tag = in_.take<std::int32_t>();
    m.bytes = in_.take<std::uint64_t>();
    m.comm = in_.take<std::int32_t>();
    if (wildcard) m.wildcard = in_.take<std::uint8_t>();
    if (m.wildcard > (kAnySource | kAnyTag)) return fmt::format("unknown wildcard bits {}", m.wildcard);
    if (!finite(m.post, m.end) || m.end < m.post) return "receive ends before it was posted";
    if (auto e = check_peer(m.src); !e.empty()) return e;
    rank_.recvs.push_back(m);
    return {};
  }

  std::string decode_request(std::vector<RequestEvent>& out, bool made) {
    const std::string_view what = made ? "request" : "complete";
    if (auto e = need(made ? kRequestRecordSize : kCompleteRecordSize, what); !e.empty()) return e;
    RequestEvent r{in_.take<double>(), in_.take<std::uint32_t>()};
    if (made) r.peer = in_.take<std::int32_t>();
    if (!std::isfinite(r.time)) return fmt::format("{} time is not a number", what);
    if (made && r.peer != -1 && r.peer != kNullPeer)
      if (auto e = check_peer(r.peer); !e.empty()) return e;
    out.push_back(r);
    return {};
  }

  std::string decode_collective() {
    if (auto e = need(kCollectiveRecordSize, "collective"); !e.empty()) return e;
    auto op = in_.take<NameId>();
    CollectiveEvent c{in_.take<double>(), in_.take<double>(), 0, in_.take<std::int32_t>(),
                      in_.take<std::int32_t>(), in_.take<std::uint64_t>()};
    if (!finite(c.begin, c.end) || c.end < c.begin) return "collective ends before it begins";
    if (c.root < -1 || c.root >= nranks_) return fmt::format("collective root {} is impossible", c.root);
    if (auto e = global_name(op, c.op); !e.empty()) return e;
    rank_.collectives.push_back(c);
    return {};
  }

  std::string decode_phase(bool begin) {
    if (auto e = need(kPhaseRecordSize, "phase"); !e.empty()) return e;
    auto id = in_.take<NameId>();
    PhaseMark p{in_.take<double>(), 0, begin};
    if (!std::isfinite(p.time)) return "phase time is not a number";
    if (auto e = global_name(id, p.name); !e.empty()) return e;
    rank_.phases.push_back(p);
    return {};
  }

  Cursor& in_;
  Trace& trace_;
  RankTrace& rank_;
  int nranks_;
  std::vector<NameIndex> local_names_;
  std::size_t record_start_ = 0;
};

std::string slurp(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot open trace file", file.string()));
  std::string bytes;
  in.seekg(0, std::ios::end);
  bytes.resize(static_cast<std::size_t>(in.tellg()));
  in.seekg(0);
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return bytes;
}

std::vector<fs::path> rank_files(const fs::path& dir) {
  static const std::regex pattern(R"(rank-\d+\.augt)");
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir))
    if (std::regex_match(entry.path().filename().string(), pattern)) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

bool is_native_trace(const fs::path& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return !rank_files(path).empty();
  return path.extension() == ".augt";
}

bool read_rank_bytes(std::string_view bytes, const std::string& file_name, Trace& trace) {
  Cursor in(bytes);
  RankHeader header;
  if (auto error = read_header(in, header); !error.empty()) {
    trace.problems.push_back({file_name, in.offset(), error});
    return false;
  }
  if (trace.ranks.empty()) {
    trace.header = header.run;
    trace.ranks.resize(static_cast<std::size_t>(header.nranks));
  } else if (header.nranks != trace.nranks()) {
    trace.problems.push_back({file_name, 0, fmt::format("says {} ranks but the trace has {}",
                                                        header.nranks, trace.nranks())});
    return false;
  }
  RankTrace& rank = trace.ranks[static_cast<std::size_t>(header.rank)];
  rank.file = file_name;
  RecordDecoder decoder(in, trace, rank, header.nranks);
  if (auto error = decoder.run(); !error.empty())
    trace.problems.push_back({file_name, decoder.record_start(), error});
  return true;
}

Trace read_native_trace(const fs::path& path) {
  std::vector<fs::path> files =
      fs::is_directory(path) ? rank_files(path) : std::vector<fs::path>{path};
  if (files.empty())
    throw std::runtime_error(fmt::format("{}: no rank files (rank-NNNNN.augt) found", path.string()));
  Trace trace;
  for (const auto& file : files) read_rank_bytes(slurp(file), file.string(), trace);
  if (trace.ranks.empty()) throw std::runtime_error(trace.problems.front().message());
  for (std::size_t r = 0; r < trace.ranks.size(); ++r)
    if (trace.ranks[r].file.empty() && fs::is_directory(path))
      trace.problems.push_back({(path / rank_file_name(static_cast<int>(r))).string(), 0,
                                "rank file is missing"});
  return trace;
}

}  // namespace augur::trace
