// `augur fit`: raw measurements (from `augur bench`) in, a model file out.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/input_files.hpp"
#include "fit/fitter.hpp"
#include "fit/provenance.hpp"
#include "fit/machine_state.hpp"
#include "fit/raw.hpp"
#include "model/model_json.hpp"
#include "util/size.hpp"
#include "model/state_choice.hpp"
#include "model/units.hpp"

namespace augur::cli {
namespace {

struct FitCommandOptions {
  std::vector<std::string> raw_files;
  std::string output;
  std::string family = "wide";
  std::string statistic = "median";
  std::string state = "reference";
  std::string selection = "cv";
  std::string threshold;
  bool no_breakpoints = false;
  int max_segments = fit::FitOptions{}.max_segments;
  std::string time_unit = "us";
  std::string size_unit = "bytes";
  int int_bytes = 4;
};

fit::FitOptions to_fit_options(const FitCommandOptions& o) {
  fit::FitOptions options;
  options.family = *fit::family_from_string(o.family);
  options.selection = *fit::selection_from_string(o.selection);
  options.statistic = *model::statistic_from_string(o.statistic);
  options.state = *model::state_choice_from_string(o.state);
  options.detect_breakpoints = !o.no_breakpoints;
  options.max_segments = o.max_segments;
  options.units = {o.time_unit, o.size_unit, o.int_bytes};
  if (!o.threshold.empty()) {
    try {
      options.threshold_bytes = util::parse_size(o.threshold, o.int_bytes);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--threshold: ") + e.what());
    }
  }
  std::string source;
  for (const auto& f : o.raw_files) source += (source.empty() ? "" : " ") + f;
  options.source = source;
  return options;
}

nlohmann::json machine_of(const nlohmann::json& header) {
  auto it = header.find("machine");
  return it == header.end() ? nlohmann::json() : *it;
}

// Points of every file, header of the first; a later file from another machine is reported,
// since mixing machines in one model is almost always a mistake.
fit::RawSet read_all(const std::vector<std::string>& files) {
  fit::RawSet all;
  for (std::size_t i = 0; i < files.size(); ++i) {
    auto raw = read_raw_input(files[i], "augur fit");
    if (i == 0) {
      all.header = std::move(raw.header);
    } else if (machine_of(raw.header) != machine_of(all.header)) {
      std::cerr << "augur fit: warning: " << files[i] << " names another machine than " << files[0]
                << "; the model takes the first file's machine and provenance\n";
    }
    all.points.insert(all.points.end(), raw.points.begin(), raw.points.end());
    all.unmeasurable.insert(all.unmeasurable.end(), raw.unmeasurable.begin(), raw.unmeasurable.end());
  }
  return all;
}

std::string range_text(const model::Regime& r) {
  const auto from = model::format_bytes(r.from);
  return std::isinf(r.to) ? fmt::format("[{}, inf)", from) : fmt::format("[{}, {})", from, model::format_bytes(r.to));
}

// Q, the probability of a fit this poor by chance, matters only while it is not tiny.
std::string q_text(double q) { return q < 1e-3 ? "< 0.001" : model::significant(q, 2); }

std::string law_text(const model::Regime& r) {
  const auto* form = std::get_if<model::FittedForm>(&r.law);
  if (!form) return r.equation();
  std::string terms;
  for (const auto& t : form->terms) terms += (terms.empty() ? "" : " + ") + t.basis.name();
  return fmt::format("{} (cv {:.1f}%, Q {})", terms, 100 * form->stats.cv_error, q_text(form->stats.q));
}

void print_summary(const model::Model& model) {
  for (const auto& [name, op] : model.operations) {
    std::string line = fmt::format("{} ({}): {} regime{}", name, model::mpi_name(name), op.regimes.size(),
                                   op.regimes.size() == 1 ? "" : "s");
    for (std::size_t i = 0; i < op.regimes.size(); ++i)
      line += fmt::format("{} {}: {}", i == 0 ? ":" : ";", range_text(op.regimes[i]), law_text(op.regimes[i]));
    std::cerr << line << "\n";
  }
}

}  // namespace

void add_fit_command(CLI::App& app) {
  auto opts = std::make_shared<FitCommandOptions>();
  auto* cmd = app.add_subcommand("fit", "Fit timing equations to raw measurements (from `augur bench`) into a model file");
  cmd->footer(
      "How: for each operation every candidate law c + s*startup(p) + k*data(p,d) is fitted by\n"
      "weighted least squares (weights 1/stderr^2); the law that best predicts left-out points wins,\n"
      "and a law with more terms must win clearly. Jumps along the size axis (eager to rendezvous,\n"
      "packet steps) become separate regimes. Min/max bounds cover every measurement.\n"
      "Details: docs/fitting.md.\n"
      "\n"
      "Examples:\n"
      "  augur fit run.jsonl -o mymachine.json                 wide family, breakpoints detected\n"
      "  augur fit a.jsonl b.jsonl -o m.json --family seed12 --threshold 32ints --int-bytes 8\n"
      "                                                        the seed's 12 forms, split at 32 ints\n"
      "  augur calc --machine mymachine.json bcast 16 8KiB     then ask the model\n"
      "\n"
      "Prints one line per operation to stderr: its regimes in bytes, the chosen terms, the\n"
      "cross-validated relative error and the goodness of fit Q.\n");
  cmd->add_option("raw", opts->raw_files, "raw measurement files (JSON Lines, docs/raw-format.md)")->required();
  cmd->add_option("-o,--output", opts->output, "model file to write (replaced atomically)")->required();
  cmd->add_option("--family", opts->family, "candidate laws: seed12 (the seed's 12 forms) or wide (Extra-P terms)")
      ->check(CLI::IsMember({"seed12", "wide"}))
      ->capture_default_str();
  cmd->add_option("--statistic", opts->statistic, "statistic of the repetitions to fit")
      ->check(CLI::IsMember({"min", "median", "mean"}))
      ->capture_default_str();
  cmd->add_option("--state", opts->state,
                  "which passes of a point to pool when the machine jumped between states (docs/fitting.md): "
                  "typical pools all, as programs meet them; reference the machine at its best (short messages scaled to the fastest probes, others the faster half of their passes)")
      ->check(CLI::IsMember({"typical", "reference"}))
      ->capture_default_str();
  cmd->add_option("--selection", opts->selection, "cv (cross-validated error) or chi2 (least chi2, as the seed)")
      ->check(CLI::IsMember({"cv", "chi2"}))
      ->capture_default_str();
  cmd->add_option("--threshold", opts->threshold,
                  "split small and large messages at SIZE (e.g. 32ints, 4KiB; in both fits) instead of detecting breakpoints");
  cmd->add_flag("--no-breakpoints", opts->no_breakpoints, "one regime per operation");
  cmd->add_option("--max-segments", opts->max_segments, "most regimes breakpoint detection may create")
      ->check(CLI::Range(1, 16))
      ->capture_default_str();
  cmd->add_option("--time-unit", opts->time_unit, "time unit of the written equations")
      ->check(CLI::IsMember({"s", "ms", "us", "ns"}))
      ->capture_default_str();
  cmd->add_option("--size-unit", opts->size_unit, "what d counts in the written equations")
      ->check(CLI::IsMember({"bytes", "ints"}))
      ->capture_default_str();
  cmd->add_option("--int-bytes", opts->int_bytes, "bytes per int (for --size-unit ints and sizes like 32ints)")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd->callback([opts] {
    const auto options = to_fit_options(*opts);
    const auto raw = read_all(opts->raw_files);
    const auto [model, states] = fit::fit_model(raw, options);
    print_summary(model);
    model::save_model_file(model, opts->output);
    std::cerr << "augur fit: wrote " << model.operations.size() << " operation" << (model.operations.size() == 1 ? "" : "s")
              << " from " << raw.points.size() << " points to " << opts->output << "\n";
    if (model.nodes) {
      std::size_t placed = 0;
      for (const auto& [per_node, ops] : model.nodes->placements) placed += ops.size();
      std::cerr << "augur fit: a machine of nodes, " << model.nodes->ranks_per_node << " ranks a node: the operations above "
                << "between nodes, " << model.nodes->on_node.size() << " on one node, " << placed
                << " at several ranks a node (docs/nodes.md)\n";
    }
    if (const auto sentence = fit::states_summary(states, options.state); !sentence.empty())
      std::cerr << "augur fit: " << sentence << "\n";
    if (const auto sentence = fit::unmeasurable_summary(model.provenance); !sentence.empty())
      std::cerr << "augur fit: " << sentence << "; the model leaves them out\n";
  });
}

}  // namespace augur::cli
