#include "cli/input_files.hpp"

#include <initializer_list>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "model/error.hpp"
#include "model/machines.hpp"
#include "trace/read_any.hpp"

namespace augur::cli {
namespace fs = std::filesystem;
using trace::FileKind;

namespace {

// Where augur does read a file of this kind, for a user who gave it to the wrong command.
std::string_view where_it_goes(FileKind kind) {
  switch (kind) {
    case FileKind::chrome_json:
    case FileKind::paraver:
      return "augur writes this format for other tools (augur trace convert) but does not read it: give the "
             "augur trace it was made from.";
    case FileKind::otf2:
      return "augur reads an OTF2 archive through its .otf2 anchor file or the directory holding it.";
    case FileKind::native_trace:
    case FileKind::text_trace: return "Traces are read by augur summary, view, compare, sim and analyze.";
    case FileKind::schedule: return "Schedules are run by augur sim and augur analyze.";
    case FileKind::goal:
      return "augur sim runs GOAL schedules; the trace commands read one as its run, which `augur sim FILE --trace T` "
             "also writes.";
    case FileKind::model: return "A model file goes after --machine.";
    case FileKind::app_model:
      return "augur plot evaluates application models; augur sim --app FILE --ranks P runs the program section of one.";
    case FileKind::raw: return "augur fit makes a model file of raw measurements.";
    case FileKind::machine: return "A machine file goes after --topology (augur sim, augur analyze).";
    default: return {};
  }
}

bool is_one_of(FileKind kind, std::initializer_list<FileKind> kinds) {
  for (const auto k : kinds)
    if (k == kind) return true;
  return false;
}

// The file at `path`, unless it is missing or may be a damaged file of the kinds given: then the
// reader's own error says more.
void check_kind(const fs::path& path, std::string_view command, const Expected& expected,
                std::initializer_list<FileKind> may_be) {
  const auto file = trace::describe_file(path);
  if (file.kind == FileKind::missing || is_one_of(file.kind, may_be)) return;
  wrong_kind(path, file, command, expected);
}

}  // namespace

Expected trace_expected() {
  return {"a trace", fmt::format("a trace: {} (docs/trace-format.md)", trace::trace_forms())};
}

Expected trace_or_schedule_expected() {
  return {"a trace or a schedule",
          fmt::format("a trace ({}; docs/trace-format.md) or a schedule (docs/schedule-format.md)",
                      trace::trace_forms())};
}

Expected model_expected() {
  std::string names;
  for (const auto& n : model::builtin_machine_names()) names += (names.empty() ? "" : ", ") + n;
  return {"a model file", fmt::format("a built-in machine ({}) or a model file (docs/model-format.md)", names)};
}

Expected app_model_expected() { return {"an application model", "an application model (docs/app-model-format.md)"}; }

Expected raw_expected() {
  return {"raw measurements", "raw measurements, JSON Lines as augur bench writes them (docs/raw-format.md)"};
}

void wrong_kind(const fs::path& path, const trace::FileDescription& file, std::string_view command,
                const Expected& expected) {
  if (file.kind == FileKind::missing) throw UsageError(path.string() + ": no such file or directory");
  auto message = fmt::format("{}: not {} but {}\n  {} reads {}.", path.string(), expected.noun, file.what, command,
                             expected.reads);
  if (const auto hint = where_it_goes(file.kind); !hint.empty()) message += fmt::format("\n  {}", hint);
  throw UsageError(message);
}

ProgramFile trace_or_schedule(const fs::path& path, std::string_view command) {
  const auto file = trace::describe_file(path);
  if (file.kind != FileKind::missing && trace::find_trace_format(path)) return ProgramFile::trace;
  if (file.kind == FileKind::goal) return ProgramFile::goal;
  // Text of no kind known here may be a schedule with a mistake in it, which its parser names.
  if (is_one_of(file.kind, {FileKind::schedule, FileKind::text})) return ProgramFile::schedule;
  wrong_kind(path, file, command, trace_or_schedule_expected());
}

model::Model load_machine_input(const std::string& name_or_path, std::string_view command) {
  try {
    return model::load_machine(name_or_path);
  } catch (const model::ModelError&) {
    std::error_code ec;
    if (fs::exists(name_or_path, ec))
      check_kind(name_or_path, command, model_expected(), {FileKind::model, FileKind::malformed_json});
    throw;
  }
}

app::AppModel load_app_model_input(const fs::path& path, std::string_view command) {
  try {
    return app::load_app_model(path);
  } catch (const model::ModelError&) {
    check_kind(path, command, app_model_expected(), {FileKind::app_model, FileKind::malformed_json});
    throw;
  }
}

fit::RawSet read_raw_input(const fs::path& path, std::string_view command) {
  try {
    return fit::read_raw_file(path);
  } catch (const std::exception&) {
    check_kind(path, command, raw_expected(), {FileKind::raw, FileKind::json_lines, FileKind::malformed_json});
    throw;
  }
}

}  // namespace augur::cli
