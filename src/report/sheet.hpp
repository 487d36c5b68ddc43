#pragma once
// The data sheet of a machine's MPI library (the seed's dsheet, Appendix B's shape): what was
// measured where and how, every operation's law per regime with its coefficient errors and fit
// quality, a plot per operation, and the node. Built once from a model as text and plots, then
// written as HTML (sheet_html.cpp) or LaTeX (sheet_tex.cpp).
#include <filesystem>
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "model/model.hpp"
#include "report/gnuplot.hpp"

namespace augur::report {

// One measured point (from `augur bench`'s raw file), drawn over the law fitted to it. Seconds.
struct MeasuredPoint {
  std::string op;
  double p = 0, bytes = 0;
  double median = 0, min = 0, max = 0;
};

struct SheetOptions {
  std::vector<MeasuredPoint> measured;
  int max_processes = 0;  // largest group drawn; 0: what the model measured, else 64
  double max_bytes = 0;   // largest message drawn; 0: what the model measured, else 1 MiB
};

using Facts = std::vector<std::pair<std::string, std::string>>;

struct SheetRegime {
  std::string sizes;     // "size < 257 B", "217 B ≤ size < 2049 B", "all sizes"
  std::string equation;  // t in µs, with ± coefficient errors where the model has them
  std::string quality;   // "Q = 0.61, χ² = 12.5, 48 points (median)"; empty for a published law
  std::string spread;    // "−8% / +8%" about the law; empty when none
  // "chosen: (47 ± 1) + (0.0425 ± 0.001)·d, cross-validated error 2.1%; beaten: a + b·d + c·p·d 2.4%, …";
  // empty when the model records no laws the chosen one beat
  std::string choice;
};

struct SheetOperation {
  std::string name, kind, meaning;
  std::vector<SheetRegime> regimes;
  std::string fitted_range;  // "fitted to messages up to 1 MiB and groups up to 2"; empty if unknown
  std::string plot;          // picture stem
  std::string caption;       // what the plot shows
};

struct Sheet {
  std::string title;
  std::string description;
  Facts facts;     // machine, library, source, date, who measured, units
  Facts settings;  // the measurement's settings
  std::string units_note;
  std::vector<SheetOperation> operations;
  Facts node, network;
  Facts cache_sweep;      // working set → time per dependent load
  std::string node_plot;  // picture stem of the cache sweep; empty without one
};

Sheet make_sheet(const model::Model& model, const SheetOptions& options);

// The pictures the sheet refers to: one per operation, and the cache sweep.
std::vector<Plot> sheet_plots(const model::Model& model, const SheetOptions& options);

// The file stem of an operation's picture; also its anchor in the page ("op-bcast-root").
std::string picture_stem(const std::string& operation);

// The model's operations in the catalog's order, Appendix B's: point-to-point, collectives, barrier.
std::vector<const model::Operation*> sheet_order(const model::Model& model);

// One self-contained page: styles inline and every picture an inline SVG (`svgs`: stem → the
// file gnuplot wrote), so the sheet reads offline and can be mailed as one file.
void write_sheet_html(const Sheet& sheet, const std::map<std::string, std::string>& svgs, std::ostream& out);

// A LaTeX document for pdflatex with the base packages of TeX Live only; pictures are included
// as `picture_dir`/STEM.pdf.
void write_sheet_tex(const Sheet& sheet, const std::string& picture_dir, std::ostream& out);

// Text of one regime's law for reading: coefficients in µs, "·" for products, ± errors.
std::string readable_equation(const model::Regime& regime, const model::Units& units);

// A two-rank operation's time at `bytes` on `m`, readable, or "-" when the operation is absent or
// its law does not reach that size: the cell of a table of levels (data sheet, `augur machines`).
std::string pair_time_or_dash(const model::Model& m, const model::Operation* op, double bytes);

}  // namespace augur::report
