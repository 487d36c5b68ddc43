#pragma once
// Each subcommand of `augur` lives in its own file and registers itself on the app here.
#include <CLI/CLI.hpp>

#include "model/rank_table.hpp"

namespace augur::cli {

void add_bench_command(CLI::App& app);
void add_calc_command(CLI::App& app);
void add_run_command(CLI::App& app);
void add_scale_command(CLI::App& app);
void add_fit_command(CLI::App& app);
void add_machines_command(CLI::App& app);
void add_trace_command(CLI::App& app);
void add_summary_command(CLI::App& app);
void add_compare_command(CLI::App& app);
void add_view_command(CLI::App& app);
void add_sim_command(CLI::App& app);
void add_sheet_command(CLI::App& app);
void add_diff_command(CLI::App& app);
void add_plot_command(CLI::App& app);
void add_analyze_command(CLI::App& app);
void add_sensitivity_command(CLI::App& app);
void add_learn_command(CLI::App& app);
void add_import_command(CLI::App& app);

// `--ranks-table`, of the commands whose text report has a per-rank table: a row for every rank
// even past the few dozen that fit a screen.
inline void add_ranks_table_flag(CLI::App* cmd, model::RankRows& shown) {
  cmd->add_flag_callback("--ranks-table", [&shown] { shown = model::RankRows::every_rank; },
                         "a row per rank in the report's table however many ranks (past 32 ranks alike share a row)");
}

// Raised by a command for a user error: printed as "augur: error: …", exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Raised when a command ends as the program it ran did (failed, or ran without anything for
// augur to do): augur says why and exits with the program's own status (128 + the signal for
// a program killed by one), as the program alone would have.
struct ProgramFailed : std::runtime_error {
  ProgramFailed(const std::string& what, int status) : std::runtime_error(what), exit_status(status) {}
  int exit_status;
};

}  // namespace augur::cli
