// `augur compare A B`: the original cmptrace, state by state, usually measured against predicted.
#include <iostream>

#include "cli/commands.hpp"
#include "cli/trace_input.hpp"
#include "trace/compare.hpp"

namespace augur::cli {

void add_compare_command(CLI::App& app) {
  struct Options {
    std::string a, b, levels = "ABC";
    bool json = false;
    trace::ComparisonFormat format;
  };
  auto o = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("compare", "Compare two traces of the same program state by state");
  cmd->footer(
      "Levels: A one line per state (rank, state, time in A, time in B, B/A, line or index);\n"
      "B totals per rank and state; C totals per state over the slowest rank. A summary of\n"
      "where the runs diverge most follows.\n"
      "Examples:\n  augur compare measured/ predicted/\n  augur compare m.txt p.txt --levels BC --decimals 4");
  cmd->add_option("a", o->a, "first trace, usually the measured run")->required();
  cmd->add_option("b", o->b, "second trace, usually the prediction")->required();
  cmd->add_option("--levels", o->levels, "which of the levels A, B, C to print");
  cmd->add_option("--decimals", o->format.decimals, "decimals of times in the unit the text chooses (default: 3 significant digits of the longest)")
      ->check(CLI::Range(0, 12));
  cmd->add_option("--top", o->format.top, "entries in the divergence summary");
  cmd->add_flag("--json", o->json, "print every level as JSON");
  cmd->callback([o] {
    auto a = open_trace(o->a, "augur compare");
    auto b = open_trace(o->b, "augur compare");
    auto c = trace::compare_traces(a, b);
    if (o->json) {
      std::cout << trace::comparison_json(c).dump(2) << "\n";
    } else {
      o->format.level_a = o->levels.find_first_of("Aa") != std::string::npos;
      o->format.level_b = o->levels.find_first_of("Bb") != std::string::npos;
      o->format.level_c = o->levels.find_first_of("Cc") != std::string::npos;
      std::cout << trace::format_comparison(c, o->format);
    }
    fail_if_damaged({&a, &b});
  });
}

}  // namespace augur::cli
