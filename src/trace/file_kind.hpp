#pragma once
// What kind of file a path holds, judged from its name and its first bytes: traces in augur's and
// other tools' formats, augur's JSON files, schedules. A command handed a file of another kind
// says what augur took the file for, where a parser would stop at its first byte.
#include <filesystem>
#include <string>

namespace augur::trace {

enum class FileKind {
  missing,        // no such file or directory
  directory,      // a directory holding none of the below
  empty,          // a file of no bytes
  binary,         // bytes that are not text (NUL or control bytes), of no format known here
  text,           // text of no format known here
  native_trace,   // a directory of rank-NNNNN.augt files or one such file (docs/trace-format.md)
  text_trace,     // the seed's simulator text ($types, $bars, $events)
  schedule,       // a schedule for augur sim (docs/schedule-format.md): starts with `ranks N`
  goal,           // a LogGOPSim GOAL schedule (docs/goal-format.md): starts with `num_ranks N`
  otf2,           // an OTF2 archive: its .otf2 anchor file, its .def and .evt files, or their directory
  chrome_json,    // Chrome Trace Event JSON, as Perfetto reads it
  paraver,        // a Paraver trace (.prv) or its .pcf and .row files
  model,          // an augur model file (augur_model)
  app_model,      // an application model (augur_app)
  raw,            // raw measurements (JSON Lines headed by augur_raw)
  machine,        // a machine file (augur_machine)
  json,           // a JSON document of none of the kinds above
  json_lines,     // JSON Lines without an augur_raw header
  malformed_json  // text that starts like JSON but does not parse: perhaps a damaged file of any JSON kind
};

struct FileDescription {
  FileKind kind = FileKind::missing;
  std::string what;  // for a person: "an OTF2 archive's anchor file", "an empty file", …
};

// Never throws for what the path holds; reads at most the first line of a JSON Lines file and
// the whole of a JSON document (stopping at the first field that decides its kind).
FileDescription describe_file(const std::filesystem::path& path);

}  // namespace augur::trace
