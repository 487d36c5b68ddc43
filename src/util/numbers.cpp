#include "util/numbers.hpp"

#include <charconv>
#include <cmath>

namespace augur::util {
namespace {

template <typename Number>
std::optional<Number> parse_whole(std::string_view text) {
  Number value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

std::optional<double> parse_number(std::string_view text) {
  auto value = parse_whole<double>(text);
  if (value && !std::isfinite(*value)) return std::nullopt;
  return value;
}

std::optional<long> parse_integer(std::string_view text) { return parse_whole<long>(text); }

}  // namespace augur::util
