// `augur plot`: an application model (docs/app-model-format.md) evaluated on one or more
// machines: time, speedup and phases over p as SVG and PNG, a CSV table and the best p.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "app/evaluate.hpp"
#include "cli/commands.hpp"
#include "cli/external_tools.hpp"
#include "cli/input_files.hpp"
#include "cli/named_numbers.hpp"
#include "report/app_report.hpp"

namespace augur::cli {
namespace fs = std::filesystem;
namespace {

struct PlotRequest {
  std::string app;
  std::vector<std::string> machines, settings;
  std::string output = "plots";
  bool no_draw = false;
};

app::Overrides overrides_of(const std::vector<std::string>& settings) {
  return parse_named_numbers<app::Overrides>(settings, {"--set", "NAME=NUMBER, e.g. --set tcompute=0.5"});
}

void plot(const PlotRequest& r) {
  const auto model = load_app_model_input(r.app, "augur plot");
  std::vector<model::Model> machines;
  for (const auto& m : r.machines) machines.push_back(load_machine_input(m, "augur plot --machine"));
  std::vector<const model::Model*> pointers;
  for (const auto& m : machines) pointers.push_back(&m);
  app::Evaluation evaluation;
  try {
    evaluation = app::evaluate(model, pointers, overrides_of(r.settings));
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  const fs::path dir = r.output;
  fs::create_directories(dir);
  const auto csv = dir / (model.name + ".csv");
  std::ofstream out(csv);
  report::write_app_csv(evaluation, out);
  if (!out) throw std::runtime_error(csv.string() + ": cannot write");
  std::cout << report::format_app_summary(model.name, evaluation) << "Table: " << csv.string() << "\n";
  if (r.no_draw) return;
  const auto plots = report::app_plots(model.name, evaluation);
  draw_plots(plots, {report::Picture::svg, report::Picture::png}, dir, model.name + ".gp");
  std::cout << "Plots: " << dir.string() << "/" << model.name << "-{time,speedup,phases-*}.{svg,png}, drawn by "
            << model.name << ".gp\n";
}

}  // namespace

void add_plot_command(CLI::App& app) {
  auto r = std::make_shared<PlotRequest>();
  auto* cmd = app.add_subcommand("plot", "Evaluate an application model over p on machines: time, speedup, best p");
  cmd->footer(
      "APPMODEL is an application's design as equations over the machine's operation times t<op>(p, d)\n"
      "and the node's compute terms (docs/app-model-format.md). Each phase, the total and the speedup\n"
      "T(1)/T(p) are evaluated for every p and every combination of the other parameters, on each\n"
      "machine; the table goes to DIR/NAME.csv and the plots to DIR/NAME-*.svg and .png.\n"
      "Examples:\n"
      "  augur plot examples/models/mandel.json --machine t3d --machine now-lam -o plots/\n"
      "  augur plot examples/models/outer.json --machine t3d --set tcompute=0.05\n"
      "  augur plot mymodel.json --machine host.json --set d=4096 --no-draw");
  cmd->add_option("appmodel", r->app, "application model file (JSON)")->required();
  // One value per flag, so a machine or setting never swallows the model file after it.
  cmd->add_option("-m,--machine", r->machines, "machine: built-in name or model file; repeat to compare")
      ->required()
      ->allow_extra_args(false);
  cmd->add_option("--set", r->settings, "NAME=NUMBER: a constant, node term (µs) or parameter fixed to one value")
      ->allow_extra_args(false);
  cmd->add_option("-o,--output", r->output, "directory for the table and the plots")->capture_default_str();
  cmd->add_flag("--no-draw", r->no_draw, "write the table only");
  cmd->callback([r] { plot(*r); });
}

}  // namespace augur::cli
