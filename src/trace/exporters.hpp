#pragma once
// Converts a trace to the formats other tools read. Every exporter returns the files it wrote.
#include <cstdint>
#include <filesystem>
#include <vector>

#include "trace/trace.hpp"

namespace augur::trace {

using Files = std::vector<std::filesystem::path>;

// The seed's $types/$bars/$events text, readable by read_text_trace.
Files export_text(const Trace& trace, const std::filesystem::path& out);

// Chrome Trace Event JSON (Perfetto, chrome://tracing): one slice per state, flow arrows from
// each send to its receive. Output is streamed; when a file would grow past `chunk_bytes` the
// rest goes to OUT.1.json, OUT.2.json ...; an arrow whose ends fall in different chunks is
// split between them.
inline constexpr std::uint64_t kDefaultJsonChunkBytes = 512ull << 20;
Files export_chrome_json(const Trace& trace, const std::filesystem::path& out,
                         std::uint64_t chunk_bytes = kDefaultJsonChunkBytes);

// Paraver: OUT.prv (records sorted by time), OUT.pcf (state and event names), OUT.row.
Files export_paraver(const Trace& trace, const std::filesystem::path& out);

// Every matched message as a CSV row: sender, receiver, tag, communicator, bytes, send_time,
// receive_posted, receive_end (seconds, exact), the receivers' receives in the order made.
Files export_messages(const Trace& trace, const std::filesystem::path& out);

// An OTF2 archive written through the OTF2 library: OUT/traces.otf2 plus its event files.
Files export_otf2(const Trace& trace, const std::filesystem::path& out);

}  // namespace augur::trace
