#include "sim/program/generators.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "sim/program/generator_args.hpp"
#include "sim/program/program_generators.hpp"

namespace augur::sim {
namespace {

bool has_algorithms(std::string_view collective) { return default_algorithm(collective) != nullptr; }

std::string first_algorithm(std::string_view collective) {
  for (const auto& a : algorithm_catalog())
    if (a.collective == collective) return std::string(a.name);
  return {};
}

// A collective run by every rank `iterations` times, `compute` seconds before each.
Generated collective(std::string_view name, int p, GeneratorArgs& args) {
  const double bytes = args.bytes("bytes", name == "barrier" ? "0" : "8");
  const int root = static_cast<int>(args.integer("root", 0, 0, p - 1));
  const long iterations = args.integer("iterations", 1, 1, 1 << 20);
  const double gap = args.seconds("compute", "0");
  std::string algorithm = args.text("algorithm", first_algorithm(name));
  if (!find_algorithm(name, algorithm))
    throw std::invalid_argument(fmt::format("{} has no algorithm '{}'\n{}", name, algorithm, describe_generators()));
  args.expect_empty(name);

  Generated g;
  g.program = std::make_unique<FlatProgram>(p);
  const bool rooted = timing::shape_of(name) != timing::CollectiveShape::all_to_all;
  const auto op = collective_op(g.program->intern(name), bytes, rooted ? root : -1);
  std::vector<Op> body;
  for (long i = 0; i < iterations; ++i) {
    if (gap > 0) body.push_back(compute_op(gap));
    body.push_back(op);
  }
  g.program->add_body(std::move(body));
  g.algorithms[std::string(name)] = algorithm;
  g.description = fmt::format("{} {}, p = {}, {} B{}", name, algorithm, p, bytes,
                              iterations > 1 ? fmt::format(", {} iterations", iterations) : "");
  return g;
}

}  // namespace

Generated generate(std::string_view name, const std::vector<std::string>& raw) {
  if (!has_algorithms(name) && !is_program_generator(name))
    throw std::invalid_argument(fmt::format("no generator '{}'\n{}", name, describe_generators()));
  GeneratorArgs args(raw);
  const int p = static_cast<int>(args.integer("p", 0, 1, 1 << 24));
  return is_program_generator(name) ? generate_program(name, p, args) : collective(name, p, args);
}

std::string describe_generators() {
  std::string out = "Collectives (--generate NAME p=P [bytes=8] [root=0] [algorithm=A] [iterations=1] [compute=0]), the\n"
                    "first algorithm of each the default:\n";
  for (const auto& a : algorithm_catalog())
    out += fmt::format("  {:<10} algorithm={:<14} {}\n", a.collective, a.name, a.description);
  return out + describe_program_generators();
}

}  // namespace augur::sim
