// The sheet as a LaTeX document: a title page with the provenance and the summary table, then a
// page per operation with its laws and picture, then the node. Base TeX Live packages only.
#include <fmt/format.h>

#include "report/latex.hpp"
#include "report/sheet.hpp"

namespace augur::report {
namespace {

constexpr const char* kPreamble = R"(\documentclass[10pt,a4paper]{article}
\usepackage[margin=2cm]{geometry}
\usepackage{graphicx}
\usepackage{longtable}
\usepackage{array}
\usepackage[hidelinks]{hyperref}
\setlength{\parindent}{0pt}
\setlength{\parskip}{0.5\baselineskip}
\begin{document}
)";

// Long laws without spaces ("2000+4000*p*p+2*p*p*d") may break after each sum.
std::string equation(const std::string& text) {
  std::string tex;
  for (char c : latex_code(text)) tex += c == '+' ? std::string("+\\allowbreak{}") : std::string(1, c);
  return tex;
}

std::string facts_table(const Facts& facts) {
  std::string tex = "\\begin{longtable}{@{}>{\\raggedright}p{0.28\\linewidth}>{\\raggedright\\arraybackslash}p{0.68\\linewidth}@{}}\n";
  for (const auto& [key, value] : facts) tex += fmt::format("\\textbf{{{}}} & {}\\\\\n", latex_escape(key), latex_escape(value));
  return tex + "\\end{longtable}\n";
}

std::string fit_text(const SheetRegime& r) {
  auto text = latex_escape(r.quality.empty() ? "published" : r.quality);
  return r.spread.empty() ? text : text + "; spread " + latex_escape(r.spread);
}

constexpr const char* kLawsTable =
    "\\begin{longtable}{@{}>{\\raggedright}p{0.13\\linewidth}>{\\raggedright}p{0.2\\linewidth}"
    ">{\\raggedright}p{0.38\\linewidth}>{\\raggedright\\arraybackslash}p{0.22\\linewidth}@{}}\n"
    "\\hline operation & sizes & $t$ ($\\mu$s) & fit\\\\ \\hline\\endhead\n";
constexpr const char* kLawsTableEnd = "\\hline\n\\end{longtable}\n";

// One regime as a row of a laws table; the operation is named on its first regime only.
std::string law_row(const SheetOperation& op, std::size_t i) {
  const auto& r = op.regimes[i];
  return fmt::format("{} & {} & {} & {}\\\\\n", i == 0 ? latex_escape(op.name) : "", latex_escape(r.sizes),
                     equation(r.equation), fit_text(r));
}

std::string summary(const Sheet& sheet) {
  std::string tex = "\\section*{Summary}\n";
  tex += kLawsTable;
  for (const auto& op : sheet.operations)
    for (std::size_t i = 0; i < op.regimes.size(); ++i) tex += law_row(op, i);
  return tex + kLawsTableEnd;
}

std::string operation(const SheetOperation& op, const std::string& picture_dir) {
  std::string tex = fmt::format("\\clearpage\n\\subsection*{{{}}}\n\\textit{{{}}}: {}\n\n", latex_escape(op.name),
                                latex_escape(op.kind), latex_escape(op.meaning));
  tex += kLawsTable;
  for (std::size_t i = 0; i < op.regimes.size(); ++i) tex += law_row(op, i);
  tex += kLawsTableEnd;
  // Under the chosen forms, the laws each beat in its regime's selection.
  for (const auto& r : op.regimes)
    if (!r.choice.empty()) tex += fmt::format("\\textbf{{{}}}: {}\n\n", latex_escape(r.sizes), latex_escape(r.choice));
  if (!op.fitted_range.empty()) tex += latex_escape(op.fitted_range) + "\n\n";
  tex += fmt::format("\\begin{{center}}\\includegraphics[width=\\linewidth]{{{}/{}.pdf}}\\end{{center}}\n{}\n\n",
                     picture_dir, op.plot, latex_escape(op.caption));
  return tex;
}

std::string node(const Sheet& sheet, const std::string& picture_dir) {
  std::string tex = "\\clearpage\n\\section*{Node}\n";
  tex += sheet.node.empty() ? "The model does not characterise the node.\n\n" : facts_table(sheet.node);
  if (!sheet.cache_sweep.empty())
    tex += "\\subsection*{Cache sweep}\n" + facts_table(sheet.cache_sweep) +
           fmt::format("\\begin{{center}}\\includegraphics[width=\\linewidth]{{{}/{}.pdf}}\\end{{center}}\n", picture_dir,
                       sheet.node_plot);
  tex += "\\section*{Network}\n";
  tex += sheet.network.empty() ? "The model gives no network parameters.\n\n" : facts_table(sheet.network);
  return tex;
}

}  // namespace

void write_sheet_tex(const Sheet& sheet, const std::string& picture_dir, std::ostream& out) {
  out << kPreamble << "\\section*{" << latex_escape(sheet.title) << "}\n";
  if (!sheet.description.empty()) out << latex_escape(sheet.description) << "\n\n";
  out << facts_table(sheet.facts);
  if (!sheet.settings.empty()) out << "\\subsection*{Measurement settings}\n" << facts_table(sheet.settings);
  out << latex_escape(sheet.units_note) << "\n\n" << summary(sheet);
  for (const auto& op : sheet.operations) out << operation(op, picture_dir);
  out << node(sheet, picture_dir) << "\\end{document}\n";
}

}  // namespace augur::report
