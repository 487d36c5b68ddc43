#pragma once
// The trace formats augur reads, in one registry: each format's name, how its files are named to
// a user, how a path of it is recognised, and its reader. A new importer is its reader and one
// entry here; every command that opens a trace, and every message that lists what a trace may
// be, reads this registry.
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include "trace/trace.hpp"

namespace augur::trace {

struct TraceFormat {
  std::string_view name;   // "OTF2"
  std::string_view forms;  // "an OTF2 archive (its directory or .otf2 anchor file)"
  bool (*recognises)(const std::filesystem::path&);
  Trace (*read)(const std::filesystem::path&);
};

// In the order they are tried: the first that recognises a path reads it.
std::span<const TraceFormat> trace_formats();
// The format whose reader takes `path`, or nullptr.
const TraceFormat* find_trace_format(const std::filesystem::path& path);
// Every format's forms, "a, b, or c", for a message naming what a trace may be.
std::string trace_forms();

// Reads the trace at `path` in whichever format it is. Throws std::runtime_error naming the
// path when no format recognises it or it cannot be read at all.
Trace read_trace(const std::filesystem::path& path);

}  // namespace augur::trace
