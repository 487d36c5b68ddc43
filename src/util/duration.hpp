#pragma once
// Durations as people write them in schedules, machine files and on the command line: "3",
// "1.5us", "20 ms".
#include <optional>
#include <string_view>

namespace augur::util {

// Seconds from a number with an optional unit s, ms, us (or µs) or ns; nothing if malformed.
std::optional<double> parse_seconds(std::string_view text);

}  // namespace augur::util
