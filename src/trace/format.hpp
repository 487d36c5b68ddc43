#pragma once
// The on-disk layout of a native trace (docs/trace-format.md): one file per rank, a header and
// then fixed-size little-endian records. Shared by the writer and the reader so the two cannot
// disagree about a field's offset.
#include <cstdint>
#include <string>
#include <string_view>

namespace augur::trace {

inline constexpr char kMagic[8] = {'A', 'U', 'G', 'T', 'R', 'A', 'C', 'E'};
// Version 2 added the wildcard_recv, request and complete records; version 1 files still read.
inline constexpr std::uint16_t kFormatVersion = 2;

// Where the times in a trace came from.
enum class TraceMode : std::uint8_t { predicted = 0, measured = 1, simulated = 2 };

// What a rank was doing during a state. `mpi` states carry the operation's name id.
enum class StateKind : std::uint8_t { compute = 0, mpi = 1, wait = 2, idle = 3 };

std::string_view to_string(TraceMode mode);
std::string_view to_string(StateKind kind);

// Identifies one entry of a rank file's name table (operation and phase names).
using NameId = std::uint16_t;

// The first byte of every record.
enum class RecordType : std::uint8_t {
  name = 1,         // NameId id, u16 length, then `length` bytes of UTF-8
  state = 2,        // StateKind, NameId op, f64 begin, f64 end
  send = 3,         // f64 t, i32 dst, i32 tag, u64 bytes, i32 comm
  recv = 4,         // f64 t_post, f64 t_end, i32 src, i32 tag, u64 bytes, i32 comm
  collective = 5,   // NameId op, f64 begin, f64 end, i32 comm, i32 root, u64 bytes
  phase_begin = 6,  // NameId name, f64 t
  phase_end = 7,    // NameId name, f64 t
  // Version 2:
  wildcard_recv = 8,  // a recv record, then u8 what was a wildcard: 1 the source, 2 the tag
  request = 9,        // f64 t, u32 id, i32 peer: the non-blocking call that began at t made
                      // request `id` towards `peer` (−1 any source, −2 MPI_PROC_NULL)
  complete = 10,      // f64 t, u32 id: the Wait or Test call that began at t completed `id`
};

// Bits of a wildcard_recv record's last byte.
inline constexpr std::uint8_t kAnySource = 1;
inline constexpr std::uint8_t kAnyTag = 2;

// Size of each record including its type byte; `name` records add their string's length.
inline constexpr std::size_t kNameRecordFixedSize = 1 + 2 + 2;
inline constexpr std::size_t kStateRecordSize = 1 + 1 + 2 + 8 + 8;
inline constexpr std::size_t kSendRecordSize = 1 + 8 + 4 + 4 + 8 + 4;
inline constexpr std::size_t kRecvRecordSize = 1 + 8 + 8 + 4 + 4 + 8 + 4;
inline constexpr std::size_t kCollectiveRecordSize = 1 + 2 + 8 + 8 + 4 + 4 + 8;
inline constexpr std::size_t kPhaseRecordSize = 1 + 2 + 8;
inline constexpr std::size_t kWildcardRecvRecordSize = kRecvRecordSize + 1;
inline constexpr std::size_t kRequestRecordSize = 1 + 8 + 4 + 4;
inline constexpr std::size_t kCompleteRecordSize = 1 + 8 + 4;
// The peer of a request record that had none: MPI_PROC_NULL.
inline constexpr std::int32_t kNullPeer = -2;
// Readers refuse headers claiming more ranks: a damaged count must not allocate gigabytes.
inline constexpr int kMaxRanks = 1 << 20;
// Longer names are cut to this many bytes when registered.
inline constexpr std::size_t kMaxNameLength = 1024;

// Describes the run a trace belongs to; every rank file repeats it so any one file stands alone.
struct TraceHeader {
  TraceMode mode = TraceMode::measured;
  std::string machine;            // model or host name, e.g. "sp2-mpl"
  std::string clock = "seconds";  // unit and source of the times, e.g. "seconds, MPI_Wtime"
  std::string program;            // the traced command line, free text
};

// The file of one rank inside a trace directory: "rank-00003.augt".
std::string rank_file_name(int rank);

}  // namespace augur::trace
