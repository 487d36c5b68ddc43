#pragma once
// Opens a trace in whichever format it is: a native trace directory or rank file, an OTF2
// archive, or seed text.
#include <filesystem>

#include "trace/trace.hpp"

namespace augur::trace {

// Throws std::runtime_error naming the path when it is neither format or cannot be read at all.
Trace read_trace(const std::filesystem::path& path);

}  // namespace augur::trace
