// augur: predict how an MPI program performs on a machine from that machine's model file.
#include <exception>
#include <iostream>

#include "cli/command_names.hpp"
#include "cli/commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "augur: characterise MPI machines, fit timing models, and predict MPI programs.\n"
      "Every tool reads one model file (docs/model-format.md); built-in machines are listed by\n"
      "`augur machines`. Start with: augur calc --machine sp2-mpl pingpong 2 217",
      "augur"};
  app.require_subcommand(1);
  augur::cli::add_bench_command(app);
  augur::cli::add_calc_command(app);
  augur::cli::add_run_command(app);
  augur::cli::add_scale_command(app);
  augur::cli::add_fit_command(app);
  augur::cli::add_import_command(app);
  augur::cli::add_machines_command(app);
  augur::cli::add_trace_command(app);
  augur::cli::add_summary_command(app);
  augur::cli::add_compare_command(app);
  augur::cli::add_view_command(app);
  augur::cli::add_sim_command(app);
  augur::cli::add_sheet_command(app);
  augur::cli::add_diff_command(app);
  augur::cli::add_plot_command(app);
  augur::cli::add_analyze_command(app);
  augur::cli::add_sensitivity_command(app);
  augur::cli::add_learn_command(app);
  if (const auto unknown = augur::cli::unknown_command(app, {argv + 1, argv + argc})) {
    std::cerr << *unknown;
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const augur::cli::ProgramFailed& e) {
    std::cerr << "augur: " << e.what() << "\n";
    return e.exit_status;
  } catch (const augur::cli::UsageError& e) {
    std::cerr << "augur: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "augur: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
