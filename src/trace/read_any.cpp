#include "trace/read_any.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "trace/native_reader.hpp"
#include "trace/otf2_reader.hpp"
#include "trace/text_reader.hpp"

namespace augur::trace {

Trace read_trace(const std::filesystem::path& path) {
  if (!std::filesystem::exists(path))
    throw std::runtime_error(fmt::format("{}: no such trace", path.string()));
  if (is_native_trace(path)) return read_native_trace(path);
  if (!otf2_anchor(path).empty()) return read_otf2_trace(path);
  if (looks_like_text_trace(path)) return read_text_trace_file(path);
  throw std::runtime_error(fmt::format(
      "{}: not a trace (expected a directory of rank-NNNNN.augt files, a .augt file, an OTF2 "
      "archive (its directory or .otf2 anchor file), or seed text starting with $types)", path.string()));
}

}  // namespace augur::trace
