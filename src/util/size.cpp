#include "util/size.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace augur::util {
namespace {

double unit_bytes(std::string_view unit, int int_bytes) {
  static constexpr std::array<std::pair<std::string_view, double>, 13> kUnits{{
      {"", 1}, {"b", 1}, {"B", 1}, {"bytes", 1},
      {"KiB", 1024.0}, {"MiB", 1024.0 * 1024}, {"GiB", 1024.0 * 1024 * 1024},
      {"kB", 1e3}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9},
      {"doubles", 8}, {"double", 8},
  }};
  for (const auto& [name, factor] : kUnits)
    if (unit == name) return factor;
  if (unit == "ints" || unit == "int") return int_bytes;
  return -1;
}

}  // namespace

double parse_size(std::string_view text, int int_bytes) {
  auto fail = [&](const std::string& why) {
    throw std::invalid_argument("size '" + std::string(text) + "': " + why +
                                " (write bytes, or a number with a unit: 8KiB, 8kB, 2MiB, 1000ints, 64doubles)");
  };
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end == text.data()) fail("does not start with a number");
  std::string_view unit(end, text.data() + text.size() - end);
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  double factor = unit_bytes(unit, int_bytes);
  if (factor < 0) fail("unknown unit '" + std::string(unit) + "'");
  double bytes = value * factor;
  if (!std::isfinite(bytes) || bytes < 0) fail("must be a finite size >= 0");
  return bytes;
}

}  // namespace augur::util
