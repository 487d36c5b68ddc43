#pragma once
// Opening traces for the trace commands: damage in a trace is reported after the command has
// done its work with what was readable, so a crashed run still yields a timeline or summary.
#include <filesystem>
#include <string>
#include <vector>

#include "cli/input_files.hpp"
#include "trace/trace.hpp"

namespace augur::cli {

// Reads a native, OTF2 or seed-text trace for `command` ("augur summary"), printing the reader's
// notes (what an import left out) on stderr; throws UsageError when nothing could be read, or
// the trace is refused, naming what the file is when it is no trace. A GOAL schedule stands for
// its run, simulated as `augur sim FILE` runs it with no options.
trace::Trace open_trace(const std::filesystem::path& path, std::string_view command,
                        const Expected& expected = trace_expected());

// Throws, so that `augur` exits non-zero, when any of the traces was damaged; call it after the
// output from the readable part has been written.
void fail_if_damaged(const std::vector<const trace::Trace*>& traces);

}  // namespace augur::cli
