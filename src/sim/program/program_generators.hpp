#pragma once
// The seed's program structures as generators (tuning.md §4): a farm, a pipeline and an array.
// Unlike the collective generators these are point-to-point programs with compute grains, so
// they exercise the simulator the way an application does.
#include <string>
#include <string_view>

#include "sim/program/generator_args.hpp"
#include "sim/program/generators.hpp"

namespace augur::sim {

bool is_program_generator(std::string_view name);
// The program `name` of `p` ranks; takes its own keys from `args`.
Generated generate_program(std::string_view name, int p, GeneratorArgs& args);
// One line per program generator with its keys and defaults, for --generate help.
std::string describe_program_generators();

}  // namespace augur::sim
