#include "sim/program/generator_args.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "util/duration.hpp"
#include "util/numbers.hpp"
#include "util/size.hpp"

namespace augur::sim {

GeneratorArgs::GeneratorArgs(const std::vector<std::string>& args) {
  for (const auto& a : args) {
    const auto eq = a.find('=');
    if (eq == std::string::npos || eq == 0) throw std::invalid_argument(fmt::format("'{}' is not key=value", a));
    args_[a.substr(0, eq)] = a.substr(eq + 1);
  }
}

std::string GeneratorArgs::text(std::string_view key, std::string fallback) {
  auto it = args_.find(key);
  if (it == args_.end()) return fallback;
  std::string value = it->second;
  args_.erase(it);
  return value;
}

long GeneratorArgs::integer(std::string_view key, long fallback, long low, long high) {
  const auto value = text(key, std::to_string(fallback));
  const auto v = util::parse_integer(value);
  if (!v || *v < low || *v > high)
    throw std::invalid_argument(fmt::format("{}={} must be an integer from {} to {}", key, value, low, high));
  return *v;
}

double GeneratorArgs::bytes(std::string_view key, std::string_view fallback) {
  return util::parse_size(text(key, std::string(fallback)), 4);
}

double GeneratorArgs::seconds(std::string_view key, std::string_view fallback) {
  const auto value = text(key, std::string(fallback));
  const auto s = util::parse_seconds(value);
  if (!s || *s < 0) throw std::invalid_argument(fmt::format("{}={} must be a time such as 10us", key, value));
  return *s;
}

void GeneratorArgs::expect_empty(std::string_view generator) const {
  if (!args_.empty())
    throw std::invalid_argument(fmt::format("unknown parameter '{}' for {}", args_.begin()->first, generator));
}

}  // namespace augur::sim
