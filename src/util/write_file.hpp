#pragma once
// A file written in place, for a report a program or a command leaves where it was asked to.
#include <optional>
#include <string>

namespace augur::util {

// Writes `text` to `path`; the reason it could not, if it could not. Never throws for the file.
std::optional<std::string> write_file(const std::string& path, const std::string& text);

}  // namespace augur::util
