// `augur import`: the OSU Micro-Benchmarks' or the Intel MPI Benchmarks' output in, augur's raw
// measurements out (and, with --fit, the model), for a machine one has numbers of but cannot
// run on.
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
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
  import::ImportOptions import;
};

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

// One line per operation: the process counts and the sizes it was measured at.
void print_summary(const import::Imported& imported) {
  std::map<std::string, std::map<int, std::vector<double>>> measured;
  for (const auto& m : imported.raw.points) measured[m.op][m.p].push_back(m.bytes);
  for (const auto& [op, by_p] : measured)
    for (const auto& [p, sizes] : by_p) {
      const auto [low, high] = std::minmax_element(sizes.begin(), sizes.end());
      std::cerr << fmt::format("{} ({}) at p = {}: {} size{} from {} to {}\n", op, model::mpi_name(op), p, sizes.size(),
                               sizes.size() == 1 ? "" : "s", model::format_bytes(*low), model::format_bytes(*high));
    }
  for (const auto& line : imported.left_out) std::cerr << "left out: " << line << "\n";
}

void fit_and_save(const fit::RawSet& raw, const std::string& raw_file, const std::string& model_file, bool fitted_laws) {
  fit::FitOptions options;
  options.source = raw_file;
  auto model = fit::fit_model(raw, options).model;
  if (!fitted_laws) fit::lay_laws_through_points(model, raw.points);
  model::save_model_file(model, model_file);
  std::cerr << fmt::format("augur import: wrote a model of {} operation{} to {}\n", model.operations.size(),
                           model.operations.size() == 1 ? "" : "s", model_file);
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
  cmd->add_option("--ranks-per-node", opts->import.ranks_per_node,
                  "ranks each node ran, placed block by block; kept in the provenance with each table's nodes")
      ->check(CLI::Range(1, 1 << 20));
  cmd->add_option("--machine-name", opts->import.machine_name, "the model's machine name")->capture_default_str();
  cmd->callback([opts] {
    const auto imported = import::to_raw(read_documents(*opts), opts->import);
    print_summary(imported);
    if (imported.raw.points.empty()) throw UsageError("nothing in the files measures an operation of the model; nothing written");
    util::write_whole_file(opts->output, raw_text(imported.raw));
    std::cerr << fmt::format("augur import: wrote {} points to {}\n", imported.raw.points.size(), opts->output);
    if (!opts->model.empty()) fit_and_save(imported.raw, opts->output, opts->model, opts->fitted_laws);
  });
}

}  // namespace augur::cli
