// `augur sheet`: the data sheet of a machine's MPI library, as HTML, LaTeX or PDF.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/external_tools.hpp"
#include "cli/input_files.hpp"
#include "fit/raw.hpp"
#include "model/machines.hpp"
#include "util/size.hpp"
#include "report/sheet.hpp"

namespace augur::cli {
namespace fs = std::filesystem;
namespace {

struct SheetRequest {
  std::string model, output;
  std::vector<std::string> raw;
  int max_processes = 0;
  std::string max_size;
};

enum class Format { html, tex, pdf };

Format format_of(const fs::path& output) {
  auto ext = output.extension().string();
  if (ext == ".html" || ext == ".htm") return Format::html;
  if (ext == ".tex") return Format::tex;
  if (ext == ".pdf") return Format::pdf;
  throw UsageError(output.string() + ": the sheet's format comes from the extension: .html, .tex or .pdf");
}

std::vector<report::MeasuredPoint> read_measurements(const std::vector<std::string>& files) {
  std::vector<report::MeasuredPoint> points;
  for (const auto& file : files)
    for (const auto& m : read_raw_input(file, "augur sheet --raw").points) points.push_back({m.op, double(m.p), m.bytes, m.median, m.min, m.max});
  return points;
}

void write_text(const fs::path& path, const std::string& what, const auto& writer) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error(path.string() + ": cannot open for writing");
  writer(out);
  if (!out) throw std::runtime_error(path.string() + ": cannot write the " + what);
}

void write_html(const report::Sheet& sheet, const std::vector<report::Plot>& plots, const fs::path& output) {
  TempDir dir("augur-sheet");
  draw_plots(plots, {report::Picture::svg}, dir.path());
  auto svgs = read_svgs(plots, dir.path());
  write_text(output, "sheet", [&](std::ostream& out) { report::write_sheet_html(sheet, svgs, out); });
}

// The pictures go beside the .tex, in STEM-plots/, so the pair can be moved together.
void write_tex(const report::Sheet& sheet, const std::vector<report::Plot>& plots, const fs::path& output) {
  const auto pictures = output.stem().string() + "-plots";
  draw_plots(plots, {report::Picture::pdf}, output.parent_path() / pictures);
  write_text(output, "sheet", [&](std::ostream& out) { report::write_sheet_tex(sheet, pictures, out); });
}

void write_pdf(const report::Sheet& sheet, const std::vector<report::Plot>& plots, const fs::path& output) {
  TempDir dir("augur-sheet");
  draw_plots(plots, {report::Picture::pdf}, dir.path() / "plots");
  write_text(dir.path() / "sheet.tex", "sheet", [&](std::ostream& out) { report::write_sheet_tex(sheet, "plots", out); });
  try {
    typeset_pdf(dir.path(), "sheet");
  } catch (const std::runtime_error&) {
    dir.keep();
    throw;
  }
  fs::copy_file(dir.path() / "sheet.pdf", output, fs::copy_options::overwrite_existing);
}

void sheet(const SheetRequest& r) {
  const fs::path output = r.output;
  const auto format = format_of(output);
  auto model = load_machine_input(r.model, "augur sheet");
  report::SheetOptions options;
  options.measured = read_measurements(r.raw);
  options.max_processes = r.max_processes;
  if (!r.max_size.empty()) {
    try {
      options.max_bytes = util::parse_size(r.max_size, model.units.int_bytes);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--max-size: ") + e.what());
    }
  }
  const auto sheet = report::make_sheet(model, options);
  const auto plots = report::sheet_plots(model, options);
  if (format == Format::html) write_html(sheet, plots, output);
  if (format == Format::tex) write_tex(sheet, plots, output);
  if (format == Format::pdf) write_pdf(sheet, plots, output);
  std::cout << "augur sheet: " << model.machine.name << ", " << sheet.operations.size() << " operations, written to "
            << output.string() << "\n";
}

}  // namespace

void add_sheet_command(CLI::App& app) {
  auto r = std::make_shared<SheetRequest>();
  auto* cmd = app.add_subcommand("sheet", "The data sheet of a machine's MPI library: HTML, LaTeX or PDF");
  cmd->footer(
      "The sheet names the machine, library and provenance, lists every operation's law per regime\n"
      "with coefficient errors and fit quality, and plots each law over message size (a line per\n"
      "group size, the min-max band, regime breaks dashed), then the node. Times in microseconds.\n"
      "The format follows the output's extension: .html (one self-contained file), .tex (with its\n"
      "pictures in NAME-plots/) or .pdf (through pdflatex). Needs gnuplot.\n"
      "Examples:\n"
      "  augur sheet t3d -o t3d.html\n"
      "  augur sheet host.json --raw host.jsonl -o host.pdf     measured points over the fitted laws\n"
      "  augur sheet sp2-mpl --max-processes 32 --max-size 64KiB -o sp2.tex");
  cmd->add_option("model", r->model, "built-in machine name (see `augur machines`) or model file")->required();
  cmd->add_option("-o,--output", r->output, "the sheet: .html, .tex or .pdf")->required();
  cmd->add_option("--raw", r->raw, "raw measurements (augur bench) to draw over the laws");
  cmd->add_option("--max-processes", r->max_processes, "largest group drawn (default: the measured one, else 64)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--max-size", r->max_size, "largest message drawn, e.g. 64KiB (default: the measured one, else 1MiB)");
  cmd->callback([r] { sheet(*r); });
}

}  // namespace augur::cli
