#include "util/duration.hpp"

#include <charconv>
#include <cmath>
#include <utility>

namespace augur::util {

std::optional<double> parse_seconds(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || !std::isfinite(value) || value < 0) return std::nullopt;
  std::string_view unit(end, text.data() + text.size() - end);
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  for (auto [name, scale] : {std::pair{"", 1.0}, {"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"\u00b5s", 1e-6}, {"ns", 1e-9}})
    if (unit == name) return value * scale;
  return std::nullopt;
}

}  // namespace augur::util
