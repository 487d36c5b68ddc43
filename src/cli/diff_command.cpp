// `augur diff`: two machines operation by operation: ratio of predicted times, which is faster
// where, and the crossover sizes; text, JSON and ratio plots.
#include <iostream>
#include <optional>

#include "calc/machine_diff.hpp"
#include "cli/commands.hpp"
#include "cli/external_tools.hpp"
#include "cli/input_files.hpp"
#include "util/size.hpp"
#include "report/diff_report.hpp"

namespace augur::cli {
namespace {

struct DiffRequest {
  std::string a, b;
  std::vector<double> processes{2, 8, 32};
  std::vector<std::string> sizes{"8", "1KiB", "64KiB"};
  std::string min_size = "1", max_size = "1MiB";
  bool json = false;
  std::string plot_dir;
};

// Sizes are read in bytes; "ints" count in A's int size, which the user sees first.
double bytes_of(const std::string& option, const std::string& text, int int_bytes) {
  try {
    return util::parse_size(text, int_bytes);
  } catch (const std::invalid_argument& e) {
    throw UsageError(option + ": " + e.what());
  }
}

calc::DiffOptions options_of(const DiffRequest& r, int int_bytes) {
  calc::DiffOptions o;
  o.processes = r.processes;
  o.sizes.clear();
  for (const auto& s : r.sizes) o.sizes.push_back(bytes_of("--sizes", s, int_bytes));
  o.min_bytes = bytes_of("--min-size", r.min_size, int_bytes);
  o.max_bytes = bytes_of("--max-size", r.max_size, int_bytes);
  if (!(o.min_bytes > 0) || !(o.max_bytes > o.min_bytes))
    throw UsageError("--min-size must be above 0 and below --max-size");
  return o;
}

// A machine of nodes' on-node level as a machine of its own: its point-to-point laws alone.
model::Model on_node_only(const model::Model& m) {
  auto level = m.on_node_level();
  level.operations = m.nodes->on_node;
  return level;
}

// Two machines of nodes are compared level by level (docs/nodes.md): the models' own operations
// between nodes, then their on-node levels; a machine of nodes beside one of one level, between
// nodes only, and the text says so.
void diff(const DiffRequest& r) {
  const auto a = load_machine_input(r.a, "augur diff");
  const auto b = load_machine_input(r.b, "augur diff");
  const auto options = options_of(r, a.units.int_bytes);
  const auto result = calc::diff_machines(a, b, options);
  if (result.operations.empty())
    throw UsageError(a.machine.name + " and " + b.machine.name + " have no operation in common");
  std::optional<calc::MachineDiff> on_node;
  if (a.nodes && b.nodes) on_node = calc::diff_machines(on_node_only(a), on_node_only(b), options);
  if (r.json) {
    auto j = report::diff_to_json(result);
    if (on_node) j["on_node"] = report::diff_to_json(*on_node);
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << (on_node ? "Between nodes (each machine's operations, one rank a node):\n" : "")
              << report::format_diff(result);
    if (on_node) std::cout << "\nOn one node (two ranks of one node, docs/nodes.md):\n" << report::format_diff(*on_node);
    else if (a.nodes || b.nodes)
      std::cout << "\nOnly " << (a.nodes ? a : b).machine.name
                << " is a machine of nodes: compared between nodes, one rank a node (docs/nodes.md).\n";
  }
  if (r.plot_dir.empty()) return;
  draw_plots(report::diff_plots(a, b, result), {report::Picture::svg}, r.plot_dir);
  if (!r.json) std::cout << "\nRatio plots in " << r.plot_dir << "/ (ratio-p*.svg, plots.gp)\n";
}

}  // namespace

void add_diff_command(CLI::App& app) {
  auto r = std::make_shared<DiffRequest>();
  auto* cmd = app.add_subcommand("diff", "Two machines operation by operation: time ratio, which is faster, crossovers");
  cmd->footer(
      "For every operation both models have: A's and B's predicted times at each group size and\n"
      "message size, the ratio t_B / t_A (above 1 where A is faster), and the message sizes where the\n"
      "faster machine changes (a barrier's: the group size), found between --min-size and --max-size.\n"
      "Point-to-point operations are compared at p = 2.\n"
      "Examples:\n"
      "  augur diff t3d now-lam\n"
      "  augur diff t3d now-lam -p 8 --sizes 8,64KiB --json\n"
      "  augur diff host.json t3d --plot diff-plots/");
  cmd->add_option("a", r->a, "machine A: built-in name or model file")->required();
  cmd->add_option("b", r->b, "machine B: built-in name or model file")->required();
  cmd->add_option("-p,--processes", r->processes, "group sizes compared, e.g. 2,8,32")
      ->delimiter(',')->check(CLI::Range(1.0, 1e9))->capture_default_str();
  cmd->add_option("--sizes", r->sizes, "message sizes shown, e.g. 8,1KiB,64KiB")->delimiter(',')->capture_default_str();
  cmd->add_option("--min-size", r->min_size, "smallest size searched for crossovers")->capture_default_str();
  cmd->add_option("--max-size", r->max_size, "largest size searched for crossovers")->capture_default_str();
  cmd->add_flag("--json", r->json, "print the comparison as JSON");
  cmd->add_option("--plot", r->plot_dir, "directory for ratio plots (gnuplot SVG)");
  cmd->callback([r] { diff(*r); });
}

}  // namespace augur::cli
