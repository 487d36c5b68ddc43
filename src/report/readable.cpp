#include "report/readable.hpp"

#include <cmath>
#include <utility>

#include <fmt/format.h>

namespace augur::report {

std::string readable_bytes(double bytes) {
  for (auto [unit, scale] : {std::pair{"GiB", 1073741824.0}, {"MiB", 1048576.0}, {"KiB", 1024.0}})
    if (std::abs(bytes) >= scale) return fmt::format("{:.4g} {}", bytes / scale, unit);
  return fmt::format("{:.4g} B", bytes);
}

std::string readable_seconds(double seconds) {
  const double a = std::abs(seconds);
  if (a >= 1) return fmt::format("{:.4g} s", seconds);
  if (a >= 1e-3) return fmt::format("{:.4g} ms", seconds * 1e3);
  if (a > 0 && a < 1e-7) return fmt::format("{:.4g} ns", seconds * 1e9);
  return fmt::format("{:.4g} µs", seconds * 1e6);
}

std::string readable_rate(double per_second, const std::string& unit) {
  for (auto [prefix, scale] : {std::pair{"G", 1e9}, {"M", 1e6}, {"k", 1e3}})
    if (std::abs(per_second) >= scale) return fmt::format("{:.4g} {}{}/s", per_second / scale, prefix, unit);
  return fmt::format("{:.4g} {}/s", per_second, unit);
}

}  // namespace augur::report
