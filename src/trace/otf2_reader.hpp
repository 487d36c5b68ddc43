#pragma once
// Reads an OTF2 archive (Score-P's format, or augur's own export) through the OTF2 library into a
// trace, as docs/trace-format.md ("OTF2 input") describes: one rank per MPI process, read from the
// thread that calls MPI; MPI calls from their regions' Enter and Leave; messages, requests and
// collectives from the MPI events; compute between the calls.
//
// What could not be placed is counted in Trace::notes. An archive that cannot be read to its end,
// or whose replay could not be faithful (a receive without its send), is refused: the reader
// throws std::runtime_error naming the file, the place and the reason.
#include <filesystem>
#include <string_view>

#include "trace/trace.hpp"

namespace augur::trace {

// The anchor file of the archive at `path` (the .otf2 file itself, or the one .otf2 file in a
// directory), or an empty path when `path` is no OTF2 archive.
std::filesystem::path otf2_anchor(const std::filesystem::path& path);

Trace read_otf2_trace(const std::filesystem::path& path);

}  // namespace augur::trace
