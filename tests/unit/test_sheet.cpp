// The data sheet's content and pictures, built from the built-in machines and small models.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "model/machines.hpp"
#include "model/model_json.hpp"
#include "report/gnuplot.hpp"
#include "report/latex.hpp"
#include "report/sheet.hpp"

namespace {

using augur::model::load_machine;
using augur::report::make_sheet;
using augur::report::sheet_plots;
using augur::report::SheetOptions;

const augur::report::SheetOperation& section(const augur::report::Sheet& sheet, const std::string& name) {
  for (const auto& op : sheet.operations)
    if (op.name == name) return op;
  throw std::runtime_error("no section " + name);
}

const augur::report::Plot& plot_named(const std::vector<augur::report::Plot>& plots, const std::string& name) {
  for (const auto& p : plots)
    if (p.name == name) return p;
  throw std::runtime_error("no plot " + name);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

// Appendix B "Datasheets for MPI on Cray T3D": small (≤ 32 ints) and large laws, in µs.
TEST(Sheet, T3dSummaryIsAppendixB) {
  const auto sheet = make_sheet(load_machine("t3d"), {});
  struct Row {
    const char *op, *small, *large;
  };
  for (const Row& row : {Row{"send", "30+0*d", "30+0.09*d"}, Row{"ssend", "80+0.5*d", "100+0.1*d"},
                         Row{"irecvoverlap", "0.6+0.02*d", "0.5+0.005*d"}, Row{"pingpong", "100+1*d", "100+1*d"},
                         Row{"alltoall", "40+50*p+2*d", "0+40*p+0.3*p*d"},
                         Row{"gather", "70+10*p+0.7*d", "0+200*log(p)+0.0009*p^2*d"},
                         Row{"allreduce", "300+6*p+2*log(p)*d", "300+6*p+1*log(p)*d"},
                         Row{"bcast", "200+2*p+0.6*d", "100+2*p+0.2*log(p)*d"}}) {
    const auto& op = section(sheet, row.op);
    ASSERT_EQ(op.regimes.size(), 2u) << row.op;
    EXPECT_EQ(op.regimes[0].equation, row.small) << row.op;
    EXPECT_EQ(op.regimes[0].sizes, "size < 257 B") << row.op;
    EXPECT_EQ(op.regimes[1].equation, row.large) << row.op;
    EXPECT_EQ(op.regimes[1].sizes, "size ≥ 257 B") << row.op;
  }
  EXPECT_EQ(section(sheet, "barrier").regimes.at(0).equation, "10+8*log(p)");
  EXPECT_EQ(section(sheet, "barrier").regimes.at(0).sizes, "all sizes");
}

TEST(Sheet, OperationsFollowTheCatalogPointToPointFirst) {
  const auto sheet = make_sheet(load_machine("t3d"), {});
  ASSERT_EQ(sheet.operations.size(), 21u);
  EXPECT_EQ(sheet.operations.front().name, "send");
  EXPECT_EQ(sheet.operations.front().kind, "point-to-point");
  EXPECT_EQ(section(sheet, "bcast").kind, "collective");
}

TEST(Sheet, TitleNamesMachineLibraryAndProvenance) {
  const auto sheet = make_sheet(load_machine("t3d"), {});
  EXPECT_EQ(sheet.title, "MPI data sheet: t3d");
  auto fact = [&](const std::string& key) {
    for (const auto& [k, v] : sheet.facts)
      if (k == key) return v;
    return std::string("(missing)");
  };
  EXPECT_EQ(fact("MPI library"), "EPCC MPI");
  EXPECT_EQ(fact("date"), "1996-07-05");
  EXPECT_TRUE(contains(fact("source"), "Appendix B"));
  EXPECT_TRUE(contains(sheet.units_note, "ints of 8 B"));
  bool iterations = false;
  for (const auto& [k, v] : sheet.settings) iterations |= k == "iterations" && v == "3";
  EXPECT_TRUE(iterations);
  EXPECT_EQ(sheet.node.at(0).second, "100 ns");  // the compute step, 0.1 µs, as every report prints it
}

// The timecalc session's bcast: a fitted form in seconds, shown in µs with its errors.
TEST(Sheet, FittedFormsAreShownInMicrosecondsWithErrorsAndQuality) {
  const auto model = augur::model::load_model_file(std::string(AUGUR_TEST_DATA) + "/timecalc.json");
  const auto sheet = make_sheet(model, {});
  const auto& op = section(sheet, "bcast");
  EXPECT_EQ(op.regimes.at(0).equation, "(106.5 ± 12) + (6.351 ± 0.78)·p + (0.04397 ± 0.0018)·p·d");
  EXPECT_EQ(op.regimes.at(0).quality, "Q = 0.6, χ² = 30.4, 36 points (median)");
}

// The laws a regime's chosen form beat are listed under it, on the page and in the LaTeX.
TEST(Sheet, TheLawsTheChosenFormBeatAreListedUnderIt) {
  const auto model = augur::model::parse_model(R"json({"augur_model": 1, "machine": {"name": "m"},
      "provenance": {"source": "test"}, "units": {"time": "us", "size": "bytes"},
      "operations": {"pingpong": {"regimes": [{"from": 0, "to": null, "form": {
          "terms": [{"basis": "1", "coef": 47, "stderr": 1}, {"basis": "d", "coef": 0.0425, "stderr": 0.001}],
          "chi2": 12, "q": 0.5, "points": 20, "statistic": "median", "cv_error": 0.021,
          "alternatives": [{"bases": ["1", "d", "p*d"], "cv_error": 0.024, "chi2": 11, "q": 0.5},
                           {"bases": ["1", "log2(p)"], "cv_error": 0.098, "chi2": 90, "q": 0.001},
                           {"bases": ["1", "p^0.6666666666666666"], "cv_error": 0.10125, "chi2": 95, "q": 0.001}]}}]}}})json",
                                               "m.json");
  const auto sheet = make_sheet(model, {});
  const auto& choice = section(sheet, "pingpong").regimes.at(0).choice;
  EXPECT_EQ(choice, "chosen: (47 ± 1) + (0.0425 ± 0.001)·d, cross-validated error 2.1%; "
                    "beaten: a + b·d + c·p·d 2.4%, a + b·log2(p) 9.8%, a + b·p^0.667 10.1%");
  std::ostringstream html;
  augur::report::write_sheet_html(sheet, {}, html);
  EXPECT_TRUE(contains(html.str(), "beaten: a + b·d + c·p·d 2.4%, a + b·log2(p) 9.8%")) << html.str();
  std::ostringstream tex;
  augur::report::write_sheet_tex(sheet, "plots", tex);
  EXPECT_TRUE(contains(tex.str(), "beaten: a + b$\\cdot$d + c$\\cdot$p$\\cdot$d 2.4\\%")) << tex.str();

  // A model without runners-up says nothing more.
  EXPECT_TRUE(section(make_sheet(load_machine("t3d"), {}), "bcast").regimes.at(0).choice.empty());
}

TEST(Sheet, SpreadAndMeasuredRangeAreStated) {
  const auto model = augur::model::parse_model(R"({"augur_model": 1, "machine": {"name": "m"},
      "provenance": {"source": "test"}, "units": {"time": "us", "size": "bytes"},
      "operations": {"pingpong": {"regimes": [{"from": 0, "expr": "1+d", "spread": {"below": 0.08, "above": 0.1}}],
                                  "measured": {"max_bytes": 65536, "max_processes": 2}}}})",
                                               "m.json");
  const auto sheet = make_sheet(model, {});
  const auto& op = section(sheet, "pingpong");
  EXPECT_EQ(op.regimes.at(0).spread, "−8% / +10%");
  EXPECT_TRUE(contains(op.fitted_range, "64 KiB")) << op.fitted_range;
}

// The compute section's states (docs/model-format.md) are shown with the node, in the page and
// the LaTeX; a model without them (the T3D's) says nothing of them.
TEST(Sheet, ComputeStatesAreShownWithTheNode) {
  const auto model = augur::model::parse_model(R"({"augur_model": 1, "machine": {"name": "m"},
      "provenance": {"source": "test"}, "units": {"time": "us", "size": "bytes"},
      "compute": {"seconds_per_step": 2.5e-9, "states": {"fast": 0.974, "slow": 1.18}},
      "operations": {"pingpong": {"regimes": [{"from": 0, "expr": "1+d"}]}}})",
                                               "m.json");
  const auto sheet = make_sheet(model, {});
  const std::string states = "0.974 … 1.18 × the measured compute (−2.6% … +18%)";
  auto fact = std::find_if(sheet.node.begin(), sheet.node.end(),
                           [](const auto& f) { return f.first == "compute states (fast … slow)"; });
  ASSERT_NE(fact, sheet.node.end());
  EXPECT_TRUE(contains(fact->second, states)) << fact->second;
  EXPECT_TRUE(contains(fact->second, "5th and 95th percentiles of the ratios between the bench's compute probes")) << fact->second;
  std::ostringstream html;
  augur::report::write_sheet_html(sheet, {}, html);
  EXPECT_TRUE(contains(html.str(), "<th>compute states (fast … slow)</th><td>" + states)) << html.str();
  std::ostringstream tex;
  augur::report::write_sheet_tex(sheet, "plots", tex);
  EXPECT_TRUE(contains(tex.str(), "0.974 \\ldots{} 1.18 $\\times$ the measured compute ($-$2.6\\% \\ldots{} +18\\%)"))
      << tex.str();

  for (const auto& [key, value] : make_sheet(load_machine("t3d"), {}).node)
    EXPECT_FALSE(contains(key, "states") || contains(value, "states")) << key << ": " << value;
}

TEST(SheetPlots, PointToPointIsOneLineOverSizeWithRegimeBreaksAndBand) {
  const auto plots = sheet_plots(load_machine("t3d"), {});
  const auto& send = plot_named(plots, "op-send");
  EXPECT_TRUE(send.log_x);
  ASSERT_EQ(send.curves.size(), 1u);
  EXPECT_EQ(send.curves[0].title, "p = 2");
  EXPECT_EQ(send.x_breaks, std::vector<double>{257});
  EXPECT_EQ(send.curves[0].low.size(), send.curves[0].x.size());
  // At 1 KiB (128 ints of 8 B): 30 + 0.09·128 µs.
  for (std::size_t i = 0; i < send.curves[0].x.size(); ++i) {
    if (send.curves[0].x[i] == 1024) {
      EXPECT_NEAR(send.curves[0].y[i], 30 + 0.09 * 128, 1e-9);
    }
  }
}

TEST(SheetPlots, CollectivesGetALinePerGroupSizeAndBarriersAreDrawnOverProcesses) {
  SheetOptions options;
  options.max_processes = 32;
  const auto plots = sheet_plots(load_machine("t3d"), options);
  const auto& bcast = plot_named(plots, "op-bcast");
  ASSERT_EQ(bcast.curves.size(), 3u);
  EXPECT_EQ(bcast.curves[2].title, "p = 32");
  const auto& barrier = plot_named(plots, "op-barrier");
  EXPECT_EQ(barrier.xlabel, "processes");
  EXPECT_EQ(barrier.curves.at(0).x.back(), 32);
  EXPECT_NEAR(barrier.curves.at(0).y.back(), 10 + 8 * std::log(32.0), 1e-9);
}

TEST(SheetPlots, MeasuredPointsAreDrawnAtTheirGroupSizes) {
  SheetOptions options;
  options.measured = {{"bcast", 4, 1024, 2e-4, 1.5e-4, 3e-4}, {"bcast", 16, 1024, 4e-4, 3e-4, 5e-4}, {"send", 2, 8, 3e-5, 2e-5, 4e-5}};
  const auto plots = sheet_plots(load_machine("t3d"), options);
  const auto& bcast = plot_named(plots, "op-bcast");
  ASSERT_EQ(bcast.curves.size(), 2u);  // the measured group sizes
  EXPECT_EQ(bcast.curves[0].title, "p = 4");
  ASSERT_EQ(bcast.marks.size(), 2u);
  EXPECT_DOUBLE_EQ(bcast.marks[0].y.at(0), 200);  // µs
  EXPECT_EQ(plot_named(plots, "op-send").marks.size(), 1u);
}

// A collective measured over group sizes and message sizes: a line per group size with its band
// over a logarithmic size axis, the regime breaks, and each group size's measurements in its
// line's colour (sheet_plots.cpp says why this and not a surface over (p, size)).
TEST(SheetPlots, EachGroupSizesMeasurementsTakeTheColourOfItsLine) {
  SheetOptions options;
  options.measured = {{"allreduce", 4, 1024, 2e-4, 1.5e-4, 3e-4}, {"allreduce", 4, 64, 1e-4, 0.9e-4, 1.2e-4},
                      {"allreduce", 16, 1024, 4e-4, 3e-4, 5e-4}, {"send", 2, 8, 3e-5, 2e-5, 4e-5}};
  const auto plots = sheet_plots(load_machine("t3d"), options);
  const auto& allreduce = plot_named(plots, "op-allreduce");
  EXPECT_TRUE(allreduce.log_x);
  ASSERT_EQ(allreduce.curves.size(), 2u);
  EXPECT_EQ(allreduce.curves[1].title, "p = 16");
  EXPECT_EQ(allreduce.curves[1].low.size(), allreduce.curves[1].x.size());
  EXPECT_FALSE(allreduce.x_breaks.empty());
  ASSERT_EQ(allreduce.marks.size(), 2u);
  EXPECT_EQ(allreduce.marks[0].colour, 1);
  EXPECT_EQ(allreduce.marks[1].colour, 2);
  EXPECT_EQ(allreduce.marks[0].x.size(), 2u);
  EXPECT_EQ(plot_named(plots, "op-send").marks.at(0).colour, 0);  // one group size: black

  const auto script = augur::report::gnuplot_script({allreduce}, augur::report::Picture::svg);
  EXPECT_TRUE(contains(script, "with lines lw 2 lc 2 title 'p = 16'")) << script;
  EXPECT_TRUE(contains(script, "with yerrorbars pt 7 ps 0.6 lc 2 title ''")) << script;
  EXPECT_TRUE(contains(script, "title 'measured (colour of p)'")) << script;
  EXPECT_TRUE(contains(script, "set logscale x 2")) << script;
}

TEST(SheetHtml, EveryOperationHasASectionAndNothingIsFetched) {
  const auto model = load_machine("sp2-mpl");
  const auto sheet = make_sheet(model, {});
  std::map<std::string, std::string> svgs{
      {"op-pingpong", "<?xml version=\"1.0\"?>\n<svg id=\"gnuplot_canvas\"><use xlink:href=\"#gpPt1\"/></svg>"}};
  std::ostringstream out;
  augur::report::write_sheet_html(sheet, svgs, out);
  const auto html = out.str();
  for (const auto& [name, _] : model.operations) EXPECT_TRUE(contains(html, "<h3>" + name + "</h3>")) << name;
  EXPECT_TRUE(contains(html, "<svg id=\"op-pingpong-gnuplot_canvas\"><use xlink:href=\"#op-pingpong-gpPt1\"/>"));
  EXPECT_FALSE(contains(html, "<?xml"));
  EXPECT_FALSE(contains(html, "<script"));
  EXPECT_FALSE(contains(html, "src="));
  EXPECT_FALSE(contains(html, "<link"));
}

TEST(SheetTex, EscapesWhatTexWouldReadAsCommands) {
  using augur::report::latex_escape;
  EXPECT_EQ(latex_escape("bcast_root 50% & $1 #2 {x} ~ ^"), "bcast\\_root 50\\% \\& \\$1 \\#2 \\{x\\} \\textasciitilde{} \\textasciicircum{}");
  EXPECT_EQ(latex_escape("(1 ± 2) µs ≤ 3·p <4>"), "(1 $\\pm$ 2) $\\mu$s $\\le$ 3$\\cdot$p \\textless{}4\\textgreater{}");
  EXPECT_EQ(latex_escape("a\\b ☃"), "a\\textbackslash{}b ?");
  EXPECT_EQ(augur::report::latex_code("p^2*d_x <1>"), "\\texttt{p{\\char94}2*d{\\char95}x <1>}");
}

TEST(SheetTex, DocumentHasEveryOperationAndItsPicture) {
  const auto sheet = make_sheet(load_machine("t3d"), {});
  std::ostringstream out;
  augur::report::write_sheet_tex(sheet, "plots", out);
  const auto tex = out.str();
  EXPECT_TRUE(contains(tex, "\\begin{document}"));
  EXPECT_TRUE(contains(tex, "\\end{document}"));
  EXPECT_TRUE(contains(tex, "\\includegraphics[width=\\linewidth]{plots/op-isendoverlap.pdf}"));
  EXPECT_TRUE(contains(tex, "\\texttt{0+\\allowbreak{}200*log(p)+\\allowbreak{}0.0009*p{\\char94}2*d}"));
  auto non_ascii = std::find_if(tex.begin(), tex.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
  EXPECT_EQ(non_ascii, tex.end()) << "non-ASCII in the LaTeX at " << (non_ascii - tex.begin());
}
