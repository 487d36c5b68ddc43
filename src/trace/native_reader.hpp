#pragma once
// Reads native traces (docs/trace-format.md): a directory of rank files or one rank file.
// Damage never throws away what came before it: the reader keeps every record up to the first
// bad one and reports the file and byte offset in Trace::problems.
#include <filesystem>

#include "trace/trace.hpp"

namespace augur::trace {

// True when `path` is a trace directory holding rank files, or a rank file itself.
bool is_native_trace(const std::filesystem::path& path);

// Throws std::runtime_error only when nothing at all could be read (no rank files, no header).
Trace read_native_trace(const std::filesystem::path& path);

// Reads one rank file from memory into `trace`, for the fuzzer and for tests of damaged input.
// Returns false, with a problem recorded, when the header is unreadable.
bool read_rank_bytes(std::string_view bytes, const std::string& file_name, Trace& trace);

}  // namespace augur::trace
