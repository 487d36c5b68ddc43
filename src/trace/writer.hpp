#pragma once
// Writes one rank's events of a native trace (docs/trace-format.md). The reverse profiler calls
// these on every MPI call, so each append is a bounds check and a memcpy into a buffer; the
// buffer goes to disk whenever it holds `flush_bytes`, on flush() and in the destructor, so a
// crash loses at most one buffer. Times are seconds (double) on the run's clock.
//
// Messages are paired when the trace is read, not here: the sender records send() and the
// receiver recv(), and the reader matches the k-th send from s to d with (tag, comm) to the k-th
// receive with the same signature, which is MPI's non-overtaking order. So neither rank needs
// to know the other's times while running.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "trace/format.hpp"

namespace augur::trace {

class RankWriter {
 public:
  static constexpr std::size_t kDefaultFlushBytes = 64 * 1024;
  static constexpr std::size_t kLargestRecord = kNameRecordFixedSize + kMaxNameLength;

  // Creates `dir` if needed and starts `dir/rank-NNNNN.augt`; throws std::runtime_error naming
  // the file when it cannot be opened.
  RankWriter(const std::filesystem::path& dir, int rank, int nranks, const TraceHeader& header,
             std::size_t flush_bytes = kDefaultFlushBytes);
  ~RankWriter();  // flushes and closes; never throws
  RankWriter(const RankWriter&) = delete;
  RankWriter& operator=(const RankWriter&) = delete;

  // The id of an operation or phase name, registering it on first use. Callers on a hot path
  // should keep the id rather than look the name up on every call.
  NameId name_id(std::string_view name);

  void state(double begin, double end, StateKind kind, NameId op = 0) {
    auto* p = reserve(kStateRecordSize, RecordType::state);
    p = put(p, static_cast<std::uint8_t>(kind));
    p = put(p, op);
    p = put(p, begin);
    put(p, end);
    commit(kStateRecordSize);
  }
  void send(double t, int dst, int tag, std::uint64_t bytes, int comm) {
    auto* p = reserve(kSendRecordSize, RecordType::send);
    p = put(p, t);
    p = put(p, std::int32_t(dst));
    p = put(p, std::int32_t(tag));
    p = put(p, bytes);
    put(p, std::int32_t(comm));
    commit(kSendRecordSize);
  }
  // `t_post` is when the receive was posted, `t_end` when the data had arrived; `src` and `tag`
  // are the matched ones. `wildcard` (kAnySource, kAnyTag) says which the program left open.
  void recv(double t_post, double t_end, int src, int tag, std::uint64_t bytes, int comm, std::uint8_t wildcard = 0) {
    const std::size_t size = wildcard ? kWildcardRecvRecordSize : kRecvRecordSize;
    auto* p = reserve(size, wildcard ? RecordType::wildcard_recv : RecordType::recv);
    p = put(p, t_post);
    p = put(p, t_end);
    p = put(p, std::int32_t(src));
    p = put(p, std::int32_t(tag));
    p = put(p, bytes);
    p = put(p, std::int32_t(comm));
    if (wildcard) put(p, wildcard);
    commit(size);
  }
  // The non-blocking call that began at `t` made request `id` (ids count from 0 per rank) towards
  // world rank `peer`, −1 for any source, kNullPeer for MPI_PROC_NULL.
  void request(double t, std::uint32_t id, int peer) {
    auto* p = reserve(kRequestRecordSize, RecordType::request);
    p = put(p, t);
    p = put(p, id);
    put(p, std::int32_t(peer));
    commit(kRequestRecordSize);
  }
  // The Wait or Test call that began at `t` completed request `id`.
  void complete(double t, std::uint32_t id) {
    auto* p = reserve(kCompleteRecordSize, RecordType::complete);
    p = put(p, t);
    put(p, id);
    commit(kCompleteRecordSize);
  }
  // `root` is -1 for collectives without one (barrier, allreduce, ...).
  void collective(double begin, double end, NameId op, int comm, int root, std::uint64_t bytes) {
    auto* p = reserve(kCollectiveRecordSize, RecordType::collective);
    p = put(p, op);
    p = put(p, begin);
    p = put(p, end);
    p = put(p, std::int32_t(comm));
    p = put(p, std::int32_t(root));
    put(p, bytes);
    commit(kCollectiveRecordSize);
  }
  void phase_begin(double t, std::string_view name) { phase(RecordType::phase_begin, t, name); }
  void phase_end(double t, std::string_view name) { phase(RecordType::phase_end, t, name); }

  // Writes the buffer to the file and asks the C library to pass it on to the system.
  void flush();

  const std::filesystem::path& file() const { return file_; }

 private:
  std::byte* reserve(std::size_t size, RecordType type) {
    if (buffer_.size() - used_ < size) flush();
    std::byte* p = buffer_.data() + used_;
    *p = static_cast<std::byte>(type);
    return p + 1;
  }
  void commit(std::size_t size) { used_ += size; }
  template <class T>
  static std::byte* put(std::byte* p, T value) {
    // The format is little-endian and every supported host is too; memcpy keeps it alias-safe.
    std::memcpy(p, &value, sizeof value);
    return p + sizeof value;
  }
  void phase(RecordType type, double t, std::string_view name);

  void write_header(int rank, int nranks, const TraceHeader& header);

  std::filesystem::path file_;
  std::FILE* out_ = nullptr;
  std::vector<std::byte> buffer_;
  std::size_t used_ = 0;
  // Transparent hashing: a name given as a string_view (the reverse profiler's operation names,
  // on every traced call) is looked up without building a std::string.
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, NameId, NameHash, std::equal_to<>> names_;
};

}  // namespace augur::trace
