#pragma once
// Reads the seed's simulator trace text ($types / $bars / $events), so traces written by hand
// or by older tools can be compared and viewed. Each event starts a state on its bar; the state
// lasts until that bar's next event, and the last event (DONE) only marks the end.
#include <filesystem>
#include <string_view>

#include "trace/trace.hpp"

namespace augur::trace {

bool looks_like_text_trace(const std::filesystem::path& path);

// Bad lines are skipped and reported in Trace::problems with their byte offset and line number.
Trace read_text_trace(std::string_view text, const std::string& file_name);
Trace read_text_trace_file(const std::filesystem::path& path);

}  // namespace augur::trace
