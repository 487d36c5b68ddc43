// `augur import`: the OSU Micro-Benchmarks' or the Intel MPI Benchmarks' output in, augur's raw
// measurements out (and, with --fit, the model), for a machine one has numbers of but cannot
// run on.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "fit/fitter.hpp"
#include "fit/raw.hpp"
#include "fit/through_points.hpp"
#include "import/imb_reader.hpp"
#include "import/omb_reader.hpp"
#include "import/raw_records.hpp"
#include "model/model_json.hpp"
#include "model/units.hpp"
#include "util/whole_file.hpp"

namespace augur::cli {
namespace {

struct ImportCommandOptions {
  std::string suite;
  std::vector<std::string> files;
  std::string output;
  std::string model;
  bool fitted_laws = false;
  std::vector<std::string> ranks_per_node;  // "K" for every file, "FILE=K" for one
  import::ImportOptions import;
};

int ranks_per_node_value(const std::string& text, const std::string& item) {
  std::size_t used = 0;
  int k = 0;
  try {
    k = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || k < 1 || k > (1 << 20))
    throw UsageError(fmt::format("--ranks-per-node {}: '{}' is not a number of ranks from 1 to 1048576", item, text));
  return k;
}

// "K" places every file's runs K a node, "FILE=K" one file's (one of the files given).
void read_ranks_per_node(ImportCommandOptions& o) {
  for (const auto& item : o.ranks_per_node) {
    const auto eq = item.rfind('=');
    if (eq == std::string::npos) {
      o.import.ranks_per_node = ranks_per_node_value(item, item);
      continue;
    }
    const auto file = item.substr(0, eq);
    if (std::find(o.files.begin(), o.files.end(), file) == o.files.end())
      throw UsageError(fmt::format("--ranks-per-node {}: '{}' is not one of the files to import", item, file));
    o.import.ranks_per_node_of[file] = ranks_per_node_value(item.substr(eq + 1), item);
  }
}

std::vector<import::Document> read_documents(const ImportCommandOptions& o) {
  std::vector<import::Document> documents;
  for (const auto& file : o.files) {
    std::ifstream in(file);
    if (!in) throw UsageError(file + ": cannot open for reading");
    documents.push_back(o.suite == "omb" ? import::read_omb(in, file) : import::read_imb(in, file));
  }
  return documents;
}

std::string raw_text(const fit::RawSet& raw) {
  auto header = raw.header;
  header["augur_raw"] = 1;
  std::string text = header.dump() + "\n";
  for (const auto& m : raw.points) text += fit::to_json(m).dump() + "\n";
  return text;
}

// Where a record's ranks ran, for the summary: nothing where the records have no placement.
std::string placement_text(const fit::Measurement& m) {
  if (!m.placed()) return {};
  return fmt::format(", {} node{} x {} rank{} a node", m.nodes, m.nodes == 1 ? "" : "s", m.ranks_per_node,
                     m.ranks_per_node == 1 ? "" : "s");
}

// One line per operation and placement: the process counts and the sizes it was measured at.
void print_summary(const import::Imported& imported) {
  std::map<std::tuple<std::string, int, std::string>, std::vector<double>> measured;
  for (const auto& m : imported.raw.points) measured[{m.op, m.p, placement_text(m)}].push_back(m.bytes);
  for (const auto& [key, sizes] : measured) {
    const auto& [op, p, where] = key;
    const auto [low, high] = std::minmax_element(sizes.begin(), sizes.end());
    std::cerr << fmt::format("{} ({}) at p = {}{}: {} size{} from {} to {}\n", op, model::mpi_name(op), p, where, sizes.size(),
                             sizes.size() == 1 ? "" : "s", model::format_bytes(*low), model::format_bytes(*high));
  }
  for (const auto& line : imported.left_out) std::cerr << "left out: " << line << "\n";
  if (!imported.levels.empty()) std::cerr << "machine of " << imported.levels << "\n";
}

std::size_t operations_of_every_level(const model::Model& model) {
  std::size_t count = model.operations.size();
  if (!model.nodes) return count;
  count += model.nodes->on_node.size();
  for (const auto& [k, placed] : model.nodes->placements) count += placed.size();
  return count;
}

void fit_and_save(const fit::RawSet& raw, const std::string& raw_file, const std::string& model_file, bool fitted_laws) {
  fit::FitOptions options;
  options.source = raw_file;
  auto model = fit::fit_model(raw, options).model;
  if (!fitted_laws) fit::lay_laws_through_points(model, raw.points);
  model::save_model_file(model, model_file);
  const auto laws = operations_of_every_level(model);
  std::cerr << fmt::format("augur import: wrote a model of {} law{}{} to {}\n", laws, laws == 1 ? "" : "s",
                           model.nodes ? " over its levels" : "", model_file);
}

}  // namespace

void add_import_command(CLI::App& app) {
  auto opts = std::make_shared<ImportCommandOptions>();
  auto* cmd = app.add_subcommand("import", "Turn OSU Micro-Benchmarks or Intel MPI Benchmarks output into raw measurements (and a model)");
  cmd->footer(
      "Reads the text the benchmarks print: OMB 5.x to 7.x (osu_latency, osu_bw, osu_bibw,\n"
      "osu_mbw_mr, the collectives and their non-blocking forms, -f columns, several datatypes)\n"
      "and IMB-MPI1 / IMB-NBC 2018 to 2021 (PingPong, PingPing, Sendrecv, Uniband, Biband, the\n"
      "collectives, Barrier; -npmin's process counts). Each table becomes raw measurements of the\n"
      "model's operation (osu_latency and PingPong: pingpong, half the round trip; bandwidths:\n"
      "stream and bistream, the time per message they imply); tables the model has no operation\n"
      "for are named on stderr with the reason. Details and the whole mapping: docs/import.md.\n"
      "\n"
      "Examples:\n"
      "  augur import omb osu_latency.txt -o lat.jsonl           ping-pong, always 2 processes\n"
      "  augur import omb osu_allreduce.txt --processes 64 -o ar.jsonl\n"
      "                                                          OMB does not print the count\n"
      "  augur import omb osu_allreduce.txt --processes 576 --ranks-per-node 288 -o ar.jsonl\n"
      "                                                          placement kept in the provenance\n"
      "  augur import omb intra/osu_latency.txt inter/osu_latency.txt osu_bcast.txt --processes 64\n"
      "      --ranks-per-node 32 --ranks-per-node intra/osu_latency.txt=2\n"
      "      --ranks-per-node inter/osu_latency.txt=1 -o m.jsonl --fit m.json\n"
      "                                                          a machine of two levels (docs/nodes.md)\n"
      "  augur import imb IMB-MPI1.out -o imb.jsonl --fit cluster.json --machine-name cluster\n"
      "  augur calc --machine cluster.json allreduce 16 8KiB     then ask the model\n");
  cmd->add_option("suite", opts->suite, "whose output the files are: omb or imb")->required()->check(CLI::IsMember({"omb", "imb"}));
  cmd->add_option("files", opts->files, "the benchmarks' output, as printed")->required()->check(CLI::ExistingFile);
  cmd->add_option("-o,--output", opts->output, "raw measurements to write (docs/raw-format.md; written whole or not at all)")->required();
  auto* fit_option = cmd->add_option("--fit", opts->model,
                  "also make a model file of them: an operation printed at one or two process counts gets the lines through "
                  "its printed times (calc gives each printed time back), the others `augur fit`'s laws");
  cmd->add_flag("--fitted-laws", opts->fitted_laws, "with --fit: `augur fit`'s laws for every operation, not the lines through the points")
      ->needs(fit_option);
  cmd->add_option("--processes", opts->import.processes, "processes the tables ran at where the file does not say (OMB's collectives)")
      ->check(CLI::Range(1, 1 << 24));
  cmd->add_option("--ranks-per-node", opts->ranks_per_node,
                  "K: ranks each node ran, placed block by block; FILE=K: that file's (repeatable). Kept in the "
                  "provenance; a ping-pong on one node and tables one rank a node make a machine of two levels")
      ->allow_extra_args(false);  // one value a flag, so it never swallows the files
  cmd->add_option("--machine-name", opts->import.machine_name, "the model's machine name")->capture_default_str();
  cmd->callback([opts] {
    read_ranks_per_node(*opts);
    const auto imported = import::to_raw(read_documents(*opts), opts->import);
    print_summary(imported);
    if (imported.raw.points.empty()) throw UsageError("nothing in the files measures an operation of the model; nothing written");
    util::write_whole_file(opts->output, raw_text(imported.raw));
    std::cerr << fmt::format("augur import: wrote {} points to {}\n", imported.raw.points.size(), opts->output);
    if (!opts->model.empty()) fit_and_save(imported.raw, opts->output, opts->model, opts->fitted_laws);
  });
}

}  // namespace augur::cli
