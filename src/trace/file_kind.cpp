#include "trace/file_kind.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <string_view>
#include <system_error>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "trace/format.hpp"
#include "trace/native_reader.hpp"
#include "util/text.hpp"

namespace augur::trace {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Enough for every magic number and first line judged here; a JSON Lines header may be longer.
constexpr std::size_t kHeadBytes = 4096;
constexpr std::size_t kFirstLineBytes = 1 << 20;

std::string read_head(const fs::path& path, std::size_t bytes) {
  std::ifstream in(path, std::ios::binary);
  std::string head(bytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(bytes));
  head.resize(static_cast<std::size_t>(std::max<std::streamsize>(in.gcount(), 0)));
  return head;
}

using util::trim;

// The first line with more than blanks on it, and, with `comments`, not a # comment.
std::string_view first_line(std::string_view text, bool comments = false) {
  for (std::size_t at = 0; at < text.size();) {
    auto end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    const auto line = trim(text.substr(at, end - at));
    if (!line.empty() && !(comments && line.front() == '#')) return line;
    at = end + 1;
  }
  return {};
}

bool has_extension(const fs::path& path, std::initializer_list<std::string_view> extensions) {
  const auto ext = path.extension().string();
  return std::find(extensions.begin(), extensions.end(), ext) != extensions.end();
}

// OTF2 writes each of its files, the anchor among them, with this header.
bool otf2_bytes(std::string_view head) { return head.size() >= 2 && head[0] == '\x03' && head[1] == 'B'; }

// Formats known by their first bytes that augur has no use for: worth naming, since a user who
// hands one over has usually mistaken one file for another.
std::string binary_what(std::string_view head) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kMagic{{
      {"\x7f" "ELF", "a program or shared library (ELF)"},
      {"\x1f\x8b", "a gzip-compressed file"},
      {"\x28\xb5\x2f\xfd", "a zstd-compressed file"},
      {"\xfd" "7zXZ", "an xz-compressed file"},
      {"PK\x03\x04", "a zip archive"},
      {"%PDF-", "a PDF document"},
      {"\x89PNG", "a PNG image"},
  }};
  for (const auto& [magic, what] : kMagic)
    if (head.starts_with(magic)) return std::string(what);
  return "a binary file";
}

// Text has no NUL bytes and few control characters; UTF-8 passes, its bytes being 0x80 and up.
bool is_binary(std::string_view head) {
  std::size_t control = 0;
  for (const unsigned char c : head) {
    if (c == 0) return true;
    if (c < 0x20 && !std::strchr("\t\n\v\f\r\x1b", c)) ++control;
  }
  return control * 100 > head.size();
}

// Walks a JSON document's structure until a field decides its kind.
struct KindFinder : nlohmann::json_sax<json> {
  FileKind kind = FileKind::json;
  int depth = 0;
  bool top_array = false;

  bool found(FileKind k) {
    kind = k;
    return false;  // stops the parse
  }
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return ++depth, true; }
  bool end_object() override { return --depth, true; }
  bool start_array(std::size_t) override {
    if (depth == 0) top_array = true;
    return ++depth, true;
  }
  bool end_array() override { return --depth, true; }
  bool key(string_t& name) override {
    if (depth == 1) {
      if (name == "augur_model") return found(FileKind::model);
      if (name == "augur_app") return found(FileKind::app_model);
      if (name == "augur_raw") return found(FileKind::raw);
      if (name == "augur_machine") return found(FileKind::machine);
      if (name == "traceEvents") return found(FileKind::chrome_json);
    }
    // Chrome's other form: an array of events, each with its phase.
    if (depth == 2 && top_array && name == "ph") return found(FileKind::chrome_json);
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return found(FileKind::malformed_json);
  }
};

FileDescription json_kind(const fs::path& path) {
  // JSON Lines: a whole value on the first line, and more after it.
  const auto head = read_head(path, kFirstLineBytes);
  if (const auto newline = head.find('\n'); newline != std::string::npos) {
    const std::string_view line(head.data(), newline);
    if (json::accept(line) && !first_line(std::string_view(head).substr(newline)).empty()) {
      const auto first = json::parse(line);
      if (first.is_object() && first.contains("augur_raw"))
        return {FileKind::raw, "raw measurements (JSON Lines headed by augur_raw)"};
      return {FileKind::json_lines, "JSON Lines without an augur_raw header"};
    }
  }
  std::ifstream in(path, std::ios::binary);
  KindFinder finder;
  json::sax_parse(in, &finder);
  switch (finder.kind) {
    case FileKind::model: return {finder.kind, "an augur model file (augur_model)"};
    case FileKind::app_model: return {finder.kind, "an application model (augur_app)"};
    case FileKind::raw: return {finder.kind, "raw measurements (augur_raw)"};
    case FileKind::machine: return {finder.kind, "a machine file (augur_machine)"};
    case FileKind::chrome_json: return {finder.kind, "a Chrome Trace Event JSON file (Perfetto reads it)"};
    case FileKind::malformed_json: return {finder.kind, "a JSON document that does not parse"};
    default:
      return {FileKind::json,
              "a JSON document with none of augur's fields (augur_model, augur_app, augur_raw, augur_machine)"};
  }
}

// A short quote of a text's first line, for a person to recognise the file by.
std::string quote(std::string_view line) {
  constexpr std::size_t kShown = 40;
  std::string shown;
  for (const char c : line.substr(0, kShown)) shown += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
  return fmt::format("'{}{}'", shown, line.size() > kShown ? "…" : "");
}

FileDescription directory_kind(const fs::path& path) {
  if (is_native_trace(path)) return {FileKind::native_trace, "an augur trace (a directory of rank files)"};
  std::string anchor;
  bool event_files = false;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(path, ec)) {
    if (entry.path().extension() == ".otf2") anchor = entry.path().filename().string();
    if (has_extension(entry.path(), {".evt", ".def"})) event_files = true;
  }
  if (!anchor.empty()) return {FileKind::otf2, fmt::format("an OTF2 archive (a directory with its anchor file {})", anchor)};
  if (event_files) {
    // OTF2 keeps a trace's event and definition files in a directory named after its anchor.
    auto beside = path;
    if (!beside.has_filename()) beside = beside.parent_path();
    beside += ".otf2";
    return {FileKind::otf2, fs::is_regular_file(beside, ec)
                                ? fmt::format("the event and definition files of the OTF2 archive {}", beside.string())
                                : std::string("the event and definition files of an OTF2 archive")};
  }
  return {FileKind::directory, "a directory with no trace in it (no rank-NNNNN.augt files)"};
}

FileDescription file_kind(const fs::path& path) {
  const auto head = read_head(path, kHeadBytes);
  if (head.empty()) return {FileKind::empty, "an empty file"};
  if (head.starts_with(std::string_view(kMagic, sizeof kMagic)) || is_native_trace(path))
    return {FileKind::native_trace, "an augur trace's rank file (.augt)"};
  if (path.extension() == ".otf2" || (otf2_bytes(head) && head.find("OTF2") < 16))
    return {FileKind::otf2, "an OTF2 archive's anchor file (.otf2)"};
  if (otf2_bytes(head) && has_extension(path, {".def", ".evt"}))
    return {FileKind::otf2, "a definition or event file inside an OTF2 archive"};
  if (head.starts_with("#Paraver")) return {FileKind::paraver, "a Paraver trace (.prv)"};
  if (is_binary(head)) return {FileKind::binary, binary_what(head)};
  if (path.extension() == ".pcf" && head.starts_with("DEFAULT_OPTIONS"))
    return {FileKind::paraver, "a Paraver trace's configuration file (.pcf)"};
  if (path.extension() == ".row" && head.starts_with("LEVEL"))
    return {FileKind::paraver, "a Paraver trace's names file (.row)"};
  const auto line = first_line(head);
  if (line == "$types" || line == "$bars" || line == "$events")
    return {FileKind::text_trace, "a trace in the seed's text format ($types, $bars, $events)"};
  if (line.starts_with('{') || line.starts_with('[')) return json_kind(path);
  const auto statement = first_line(head, /*comments=*/true);
  if (statement.starts_with("ranks ") || statement.starts_with("ranks\t"))
    return {FileKind::schedule, "a schedule (it starts with 'ranks N')"};
  if (statement.starts_with("num_ranks ") || statement.starts_with("num_ranks\t"))
    return {FileKind::goal, "a GOAL schedule (it starts with 'num_ranks N')"};
  if (line.empty()) return {FileKind::text, "a text file of blank lines"};
  return {FileKind::text, "a text file starting " + quote(line)};
}

}  // namespace

FileDescription describe_file(const fs::path& path) {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (!fs::exists(status)) return {FileKind::missing, "no such file or directory"};
  if (fs::is_directory(status)) return directory_kind(path);
  // A pipe or a device would block or never end.
  if (!fs::is_regular_file(status)) return {FileKind::binary, "a special file (not a regular file or a directory)"};
  return file_kind(path);
}

}  // namespace augur::trace
