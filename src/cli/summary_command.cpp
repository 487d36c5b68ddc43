// `augur summary`: where each rank's time went and which MPI operations cost most.
#include <iostream>

#include "cli/commands.hpp"
#include "cli/trace_input.hpp"
#include "trace/summary.hpp"

namespace augur::cli {

void add_summary_command(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  auto shown = std::make_shared<model::RankRows>(model::RankRows::fit_screen);
  auto* cmd = app.add_subcommand("summary", "Per-rank and per-operation totals of a trace");
  cmd->footer("Examples:\n  augur summary run/\n  augur summary run/ --json | jq .per_operation");
  cmd->add_option("trace", *path, "a trace directory, rank file or text trace")->required();
  cmd->add_flag("--json", *json, "print JSON instead of tables");
  add_ranks_table_flag(cmd, *shown);
  cmd->callback([path, json, shown] {
    auto t = open_trace(*path, "augur summary");
    auto s = trace::summarize(t);
    if (*json) std::cout << trace::summary_json(s).dump(2) << "\n";
    else std::cout << trace::format_summary(s, *shown);
    fail_if_damaged({&t});
  });
}

}  // namespace augur::cli
