#include "trace/read_any.hpp"

#include <array>
#include <stdexcept>

#include <fmt/format.h>

#include "trace/native_reader.hpp"
#include "trace/otf2_reader.hpp"
#include "trace/text_reader.hpp"

namespace augur::trace {
namespace {

bool is_otf2_archive(const std::filesystem::path& path) { return !otf2_anchor(path).empty(); }

constexpr std::array<TraceFormat, 3> kFormats{{
    {"augur", "a directory of rank-NNNNN.augt files as augur run --trace and augur sim --trace write them, one .augt file",
     is_native_trace, read_native_trace},
    {"OTF2", "an OTF2 archive (its directory or .otf2 anchor file)", is_otf2_archive, read_otf2_trace},
    {"seed text", "seed text starting with $types", looks_like_text_trace, read_text_trace_file},
}};

}  // namespace

std::span<const TraceFormat> trace_formats() { return kFormats; }

const TraceFormat* find_trace_format(const std::filesystem::path& path) {
  for (const auto& format : kFormats)
    if (format.recognises(path)) return &format;
  return nullptr;
}

std::string trace_forms() {
  std::string out;
  for (std::size_t i = 0; i < kFormats.size(); ++i)
    out += fmt::format("{}{}", i == 0 ? "" : i + 1 == kFormats.size() ? ", or " : ", ", kFormats[i].forms);
  return out;
}

Trace read_trace(const std::filesystem::path& path) {
  if (!std::filesystem::exists(path))
    throw std::runtime_error(fmt::format("{}: no such trace", path.string()));
  if (const auto* format = find_trace_format(path)) return format->read(path);
  throw std::runtime_error(fmt::format("{}: not a trace (expected {})", path.string(), trace_forms()));
}

}  // namespace augur::trace
