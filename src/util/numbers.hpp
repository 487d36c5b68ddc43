#pragma once
// A whole piece of text read as one number: what every option, environment variable and
// key=value parameter takes. Nothing may stand before or after the number (" 1", "1x" and "" are
// not numbers), and a real number must be finite, so "inf" and "1e999" are errors, not limits.
#include <optional>
#include <string_view>

namespace augur::util {

std::optional<double> parse_number(std::string_view text);
std::optional<long> parse_integer(std::string_view text);

}  // namespace augur::util
