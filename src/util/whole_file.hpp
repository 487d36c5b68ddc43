#pragma once
// A file written whole or not at all: the text goes to FILE.partial, which is renamed over FILE
// only once every byte is written, so a failed write or an interrupted command never leaves a
// half-written model or application model where a reader would take it for a whole one.
#include <filesystem>
#include <string_view>

namespace augur::util {

// Throws std::runtime_error naming the file when it cannot be written.
void write_whole_file(const std::filesystem::path& path, std::string_view text);

}  // namespace augur::util
