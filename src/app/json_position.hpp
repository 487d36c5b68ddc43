#pragma once
// Where a field of a JSON document is written, so an error in a file can name its line. The
// path is the one model::JsonNode builds ("program.groups[1].body[0].peer"); it is followed
// through the text member by member and element by element, strings and nesting respected.
#include <cstddef>
#include <string>
#include <string_view>

namespace augur::app {

// The offset of the value at `path`, or std::string::npos when the path cannot be followed.
std::size_t offset_of_path(std::string_view text, const std::string& path);

}  // namespace augur::app
