#pragma once
// Continuing an interrupted run: the raw file keeps every finished point, and a run killed while
// writing may leave half a line at the end, which is cut off so that appending stays valid.
#include <filesystem>

#include "fit/raw.hpp"

namespace augur::bench {

// Cuts a partial last line off the file and returns the points it holds. Throws
// std::runtime_error if the file cannot be read or holds a damaged line before the end.
fit::RawSet reopen_raw_file(const std::filesystem::path& path);

}  // namespace augur::bench
