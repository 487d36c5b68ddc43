#include "trace/writer.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace augur::trace {

namespace {

// Header strings are length-prefixed with a u16; longer ones are cut rather than refused
// because a long command line must not stop a run from being traced.
void append_string(std::vector<std::byte>& out, std::string_view s) {
  auto length = static_cast<std::uint16_t>(std::min<std::size_t>(s.size(), 0xffff));
  auto* raw = reinterpret_cast<const std::byte*>(&length);
  out.insert(out.end(), raw, raw + sizeof length);
  auto* chars = reinterpret_cast<const std::byte*>(s.data());
  out.insert(out.end(), chars, chars + length);
}

template <class T>
void append_value(std::vector<std::byte>& out, T value) {
  auto* raw = reinterpret_cast<const std::byte*>(&value);
  out.insert(out.end(), raw, raw + sizeof value);
}

}  // namespace

RankWriter::RankWriter(const std::filesystem::path& dir, int rank, int nranks,
                       const TraceHeader& header, std::size_t flush_bytes)
    : file_(dir / rank_file_name(rank)),
      buffer_(std::max<std::size_t>(flush_bytes, kLargestRecord)) {
  std::error_code ignored;
  std::filesystem::create_directories(dir, ignored);
  out_ = std::fopen(file_.c_str(), "wb");
  if (!out_) throw std::runtime_error(fmt::format("{}: cannot create trace file", file_.string()));
  write_header(rank, nranks, header);
}

RankWriter::~RankWriter() {
  if (!out_) return;
  try {
    flush();
  } catch (...) {
    // A destructor must not throw; the file keeps what earlier flushes wrote.
  }
  std::fclose(out_);
}

void RankWriter::write_header(int rank, int nranks, const TraceHeader& header) {
  std::vector<std::byte> bytes;
  auto* magic = reinterpret_cast<const std::byte*>(kMagic);
  bytes.insert(bytes.end(), magic, magic + sizeof kMagic);
  append_value(bytes, kFormatVersion);
  append_value(bytes, static_cast<std::uint8_t>(header.mode));
  append_value(bytes, std::uint8_t{0});
  append_value(bytes, std::int32_t(rank));
  append_value(bytes, std::int32_t(nranks));
  append_string(bytes, header.machine);
  append_string(bytes, header.clock);
  append_string(bytes, header.program);
  if (std::fwrite(bytes.data(), 1, bytes.size(), out_) != bytes.size())
    throw std::runtime_error(fmt::format("{}: cannot write trace header", file_.string()));
}

NameId RankWriter::name_id(std::string_view name) {
  if (auto it = names_.find(name); it != names_.end()) return it->second;
  if (names_.size() >= 0xffff)
    throw std::runtime_error(fmt::format("{}: more than 65535 distinct names", file_.string()));
  auto id = static_cast<NameId>(names_.size());
  names_.emplace(std::string(name), id);
  auto length = static_cast<std::uint16_t>(std::min(name.size(), kMaxNameLength));
  std::size_t size = kNameRecordFixedSize + length;
  auto* p = reserve(size, RecordType::name);
  p = put(p, id);
  p = put(p, length);
  std::memcpy(p, name.data(), length);
  commit(size);
  return id;
}

void RankWriter::phase(RecordType type, double t, std::string_view name) {
  NameId id = name_id(name);
  auto* p = reserve(kPhaseRecordSize, type);
  p = put(p, id);
  put(p, t);
  commit(kPhaseRecordSize);
}

void RankWriter::flush() {
  if (used_ > 0 && std::fwrite(buffer_.data(), 1, used_, out_) != used_)
    throw std::runtime_error(fmt::format("{}: cannot write trace records", file_.string()));
  used_ = 0;
  std::fflush(out_);
}

}  // namespace augur::trace
