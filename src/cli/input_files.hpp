#pragma once
// The files commands read, opened so that a file of another kind is named for what it is: "not a
// trace but an OTF2 archive's anchor file; augur sim reads …", where a parser would report its
// first byte. A file of the right kind that is damaged keeps its parser's error, which says where.
#include <filesystem>
#include <string>
#include <string_view>

#include "app/app_model.hpp"
#include "fit/raw.hpp"
#include "model/model.hpp"
#include "trace/file_kind.hpp"

namespace augur::cli {

// What a command expects of a file: its name in "not … but …", and what the command reads.
struct Expected {
  std::string_view noun;  // "a trace"
  std::string reads;      // "a trace: a directory of rank-NNNNN.augt files, …"
};

Expected trace_expected();
Expected trace_or_schedule_expected();
Expected model_expected();
Expected app_model_expected();
Expected raw_expected();

// The UsageError for `path`, found to be `file`, given to `command` ("augur sim", "augur calc
// --machine"): what augur took the file for, what the command reads, and where that kind of file
// goes instead when augur reads it elsewhere.
[[noreturn]] void wrong_kind(const std::filesystem::path& path, const trace::FileDescription& file,
                             std::string_view command, const Expected& expected);

// What augur sim and augur analyze run: a trace, a schedule, or a GOAL schedule (which only augur
// sim runs). Throws UsageError for a file that is none of them.
enum class ProgramFile { trace, schedule, goal };
ProgramFile trace_or_schedule(const std::filesystem::path& path, std::string_view command);

// A built-in machine or a model file, for `command` (e.g. "augur calc --machine").
model::Model load_machine_input(const std::string& name_or_path, std::string_view command);
app::AppModel load_app_model_input(const std::filesystem::path& path, std::string_view command);
fit::RawSet read_raw_input(const std::filesystem::path& path, std::string_view command);

}  // namespace augur::cli
