#include "sim/generators.hpp"

#include <cmath>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "calc/size.hpp"
#include "sim/units.hpp"

namespace augur::sim {
namespace {

using Args = std::map<std::string, std::string, std::less<>>;

Args parse_args(const std::vector<std::string>& args) {
  Args out;
  for (const auto& a : args) {
    const auto eq = a.find('=');
    if (eq == std::string::npos || eq == 0) throw std::invalid_argument(fmt::format("'{}' is not key=value", a));
    out[a.substr(0, eq)] = a.substr(eq + 1);
  }
  return out;
}

// Takes `key` out of `args`, or gives the default.
std::string take(Args& args, std::string_view key, std::string fallback) {
  auto it = args.find(key);
  if (it == args.end()) return fallback;
  std::string value = it->second;
  args.erase(it);
  return value;
}

long integer(Args& args, std::string_view key, long fallback, long low, long high) {
  const auto text = take(args, key, std::to_string(fallback));
  std::size_t used = 0;
  long v = 0;
  try {
    v = std::stol(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || v < low || v > high)
    throw std::invalid_argument(fmt::format("{}={} must be an integer from {} to {}", key, text, low, high));
  return v;
}

bool has_algorithms(std::string_view collective) { return default_algorithm(collective) != nullptr; }

}  // namespace

Generated generate(std::string_view name, const std::vector<std::string>& raw) {
  if (!has_algorithms(name))
    throw std::invalid_argument(fmt::format("no generator '{}'\n{}", name, describe_generators()));
  auto args = parse_args(raw);
  const int p = static_cast<int>(integer(args, "p", 0, 1, 1 << 24));
  const double bytes = calc::parse_size(take(args, "bytes", name == "barrier" ? "0" : "8"), 4);
  const int root = static_cast<int>(integer(args, "root", 0, 0, p - 1));
  const long iterations = integer(args, "iterations", 1, 1, 1 << 20);
  const auto gap = parse_seconds(take(args, "compute", "0"));
  if (!gap) throw std::invalid_argument("compute= must be a time such as 10us");
  std::string algorithm = take(args, "algorithm", "");
  if (algorithm.empty())
    for (const auto& a : algorithm_catalog())
      if (a.collective == name) {
        algorithm = a.name;
        break;
      }
  if (!find_algorithm(name, algorithm))
    throw std::invalid_argument(fmt::format("{} has no algorithm '{}'\n{}", name, algorithm, describe_generators()));
  if (!args.empty()) throw std::invalid_argument(fmt::format("unknown parameter '{}' for {}", args.begin()->first, name));

  Generated g;
  g.program = std::make_unique<FlatProgram>(p);
  const bool rooted = timing::shape_of(name) != timing::CollectiveShape::all_to_all;
  const auto op = collective_op(g.program->intern(name), bytes, rooted ? root : -1);
  std::vector<Op> body;
  for (long i = 0; i < iterations; ++i) {
    if (*gap > 0) body.push_back(compute_op(*gap));
    body.push_back(op);
  }
  g.program->add_body(std::move(body));
  g.algorithms[std::string(name)] = algorithm;
  g.description = fmt::format("{} {}, p = {}, {} B{}", name, algorithm, p, bytes,
                              iterations > 1 ? fmt::format(", {} iterations", iterations) : "");
  return g;
}

std::string describe_generators() {
  std::string out = "Generators (--generate NAME p=P [bytes=SIZE] [root=R] [algorithm=A] [iterations=K] [compute=T]):\n";
  for (const auto& a : algorithm_catalog())
    out += fmt::format("  {:<10} algorithm={:<14} {}\n", a.collective, a.name, a.description);
  return out;
}

}  // namespace augur::sim
