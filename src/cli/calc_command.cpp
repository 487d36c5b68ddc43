// `augur calc`: the timecalc calculator, one-shot or interactive.
#include <unistd.h>

#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "calc/calculator.hpp"
#include "calc/loop.hpp"
#include "util/size.hpp"
#include "cli/commands.hpp"
#include "cli/input_files.hpp"
#include "cli/placement_options.hpp"
#include "util/numbers.hpp"
#include "model/units.hpp"
#include "model/machine_states.hpp"

namespace augur::cli {
namespace {

struct CalcOptions {
  std::string machine;
  std::vector<std::string> words;  // <operation> <processes> <size>, or loop KEY=VALUE ...
  bool json = false;
  PlacementRequest placement;
};

double parse_processes(const std::string& text) {
  const auto p = util::parse_number(text);
  if (!p || !(*p >= 1)) throw UsageError("process count '" + text + "' must be a number >= 1");
  return *p;
}

calc::Question make_question(const model::Model& m, const std::string& op, const std::string& p,
                             const std::string& size) {
  try {
    return {op, parse_processes(p), util::parse_size(size, m.units.int_bytes)};
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

// `note`: the model's note on machine states, for a one-shot answer; the prompt gives it once.
void answer(const model::Model& m, const calc::Question& q, const PlacementRequest& placement, bool json,
            const std::optional<std::string>& note) {
  // A group beyond int's range is placed as the largest int: only a cyclic placement's node count reads it.
  const int ranks = q.p < std::numeric_limits<int>::max() ? static_cast<int>(q.p) : std::numeric_limits<int>::max();
  calc::Answer a;
  try {
    a = calc::ask(m, q, make_placement(placement, ranks));
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--placement: ") + e.what());
  }
  if (json) {
    auto j = calc::answer_to_json(m, a);
    if (note) j["model_note"] = *note;
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << calc::format_answer(m, a) << (note ? "Note on the model: " + *note + "\n" : "");
  }
}

void print_operations(const model::Model& m) {
  std::cout << "operations on " << m.machine.name << ":\n";
  for (const auto& [name, op] : m.operations)
    std::cout << "  " << name << " (" << model::mpi_name(name) << "): " << op.meaning << "\n";
}

void interactive(const model::Model& m, bool json, const PlacementRequest& placement) {
  const bool tty = isatty(STDIN_FILENO);
  if (tty) {
    std::cout << "augur calc on " << m.machine.name
              << ". Ask: <operation> <processes> <size>, e.g. bcast 16 8KiB. Also: list, help, quit.\n";
    if (auto note = model::prediction_note(m.provenance.settings)) std::cout << "Note on the model: " << *note << "\n";
  }
  std::string line;
  while ((tty && std::cout << "> " << std::flush), std::getline(std::cin, line)) {
    std::istringstream words(line);
    std::string op, p, size, extra;
    words >> op >> p >> size >> extra;
    if (op.empty()) continue;
    if (op == "quit" || op == "exit") break;
    if (op == "list") {
      print_operations(m);
      continue;
    }
    if (op == "help" || size.empty() || !extra.empty()) {
      std::cout << "usage: <operation> <processes> <size>   (size in bytes or 8KiB, 1000ints …); list; quit\n";
      continue;
    }
    try {
      answer(m, make_question(m, op, p, size), placement, json, std::nullopt);
    } catch (const std::exception& e) {
      std::cout << "error: " << e.what() << "\n";
    }
  }
}

// `loop KEY=VALUE ...`: the machine–application bound of one loop on the machine's node.
void answer_loop(const model::Model& m, const std::vector<std::string>& words, bool json) {
  node::LoopCounts loop;
  try {
    loop = calc::parse_loop(words);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  const auto a = calc::ask_loop(m, loop);
  if (json) std::cout << calc::loop_to_json(m, a).dump(2) << "\n";
  else std::cout << calc::format_loop(m, a);
}

void one_question(const model::Model& m, const CalcOptions& o) {
  const auto& w = o.words;
  if (w.front() == "loop") return answer_loop(m, {w.begin() + 1, w.end()}, o.json);
  if (w.size() != 3) throw UsageError("calc needs <operation> <processes> <size>, loop KEY=VALUE ..., or none for the prompt");
  answer(m, make_question(m, w[0], w[1], w[2]), o.placement, o.json, model::prediction_note(m.provenance.settings));
}

}  // namespace

void add_calc_command(CLI::App& app) {
  auto opts = std::make_shared<CalcOptions>();
  auto* cmd = app.add_subcommand("calc", "Time of one MPI operation from a machine model (the data sheet's calculator)");
  cmd->footer(
      "Examples:\n"
      "  augur calc --machine sp2-mpl pingpong 2 217       one question\n"
      "  augur calc --machine t3d bcast 16 1000ints --json  machine-readable answer\n"
      "  augur calc --machine model.json                    interactive prompt (or questions on stdin)\n"
      "  augur calc --machine m.json pingpong 2 8 --ranks-per-node 2\n"
      "                                                    a machine of nodes: two ranks of one node\n"
      "  augur calc --machine sp2-mpl loop fa=1 fm=0 fma=2 l=2 s=1\n"
      "                                                    one loop's bound on the node (LFK1 on the POWER2)\n"
      "Operations: the model's names (`list` at the prompt) or MPI's own, in any case: MPI_Bcast, mpi_isend.\n"
      "Sizes: bytes, or 8KiB (1024), 8kB (1000), 2MiB, 1000ints (the model's int size), 64doubles.\n"
      "The answer shows the equation and its regime, so it can be checked by hand.\n"
      "Loop keys, per iteration (docs/node-model.md): fa adds, fm multiplies, fma multiply-adds, fdiv divides,\n"
      "fsqrt square roots, l loads, s stores, td cycles of the loop-carried dependence path, ml and ms the\n"
      "load and store miss rates (0..1). The answer gives every term of the machine-application bound in\n"
      "cycles, t_l, CPF, MFLOPS and the time per iteration.");
  cmd->add_option("-m,--machine", opts->machine, "built-in machine name (see `augur machines`) or model file")
      ->required();
  cmd->add_option("question", opts->words,
                  "<operation> <processes> <size>, e.g. pingpong 2 217 or MPI_Bcast 16 8KiB; or loop KEY=VALUE ... (see below)");
  cmd->add_flag("--json", opts->json, "print the answer as JSON");
  add_placement_options(*cmd, opts->placement);
  cmd->callback([opts] {
    auto model = load_machine_input(opts->machine, "augur calc --machine");
    if (opts->words.empty()) return interactive(model, opts->json, opts->placement);
    one_question(model, *opts);
  });
}

}  // namespace augur::cli
