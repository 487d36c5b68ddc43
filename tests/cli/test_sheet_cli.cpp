// `augur sheet` as a user runs it: the HTML, LaTeX and PDF sheets of built-in and fitted models,
// and the errors for bad input.
#include <gtest/gtest.h>

#include <string>

#include "augur_runner.hpp"

using namespace augur_test;

namespace {

const char* const kT3dOperations[] = {"send", "ssend", "rsend", "isend1", "isend2", "isendoverlap", "recv",
                                      "recvmin", "irecv1", "irecv2", "irecvoverlap", "sendrecv", "pingpong",
                                      "alltoall", "allsend", "gather", "allgather", "reduce", "allreduce",
                                      "bcast", "barrier"};

std::string out_path(const std::string& name) { return testing::TempDir() + name; }

}  // namespace

TEST(SheetCli, HtmlOfABuiltInMachineHasEveryOperationAndNoExternalResource) {
  const auto path = out_path("t3d-sheet.html");
  auto r = augur("sheet t3d -o " + path);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("21 operations"), std::string::npos) << r.out;
  const auto html = read_text(path);
  for (const char* op : kT3dOperations) EXPECT_NE(html.find("<h3>" + std::string(op) + "</h3>"), std::string::npos) << op;
  EXPECT_EQ(count(html, "<svg"), 21u);  // a picture per operation, inline
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("href=\"http"), std::string::npos);
  EXPECT_NE(html.find("100+2*p+0.2*log(p)*d"), std::string::npos);  // Appendix B's large bcast
}

TEST(SheetCli, HtmlOfAFittedModelShowsErrorsAndMeasuredPoints) {
  const auto raw = temp_file("sheet-raw.jsonl",
                             "{\"augur_raw\": 1}\n"
                             "{\"op\":\"bcast\",\"p\":16,\"bytes\":4000,\"min\":8.1e-4,\"median\":9.1e-4,\"mean\":9.2e-4,"
                             "\"max\":1.1e-3,\"std\":4e-5,\"reps\":30}\n");
  const auto path = out_path("timecalc-sheet.html");
  auto r = augur("sheet " + data("timecalc.json") + " --raw " + raw + " -o " + path);
  ASSERT_EQ(r.status, 0) << r.out;
  const auto html = read_text(path);
  EXPECT_NE(html.find("(106.5 ± 12)"), std::string::npos);
  EXPECT_NE(html.find("Q = 0.6, χ² = 30.4, 36 points (median)"), std::string::npos);
  EXPECT_NE(html.find("points are measurements"), std::string::npos);
}

TEST(SheetCli, TexCompilesWithPdflatex) {
  const auto dir = out_path("sheet-tex/");
  ASSERT_EQ(run("mkdir -p " + dir).status, 0);
  auto r = augur("sheet " + data("timecalc.json") + " -o " + dir + "timecalc.tex");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(run("test -f " + dir + "timecalc-plots/op-bcast.pdf").status, 0);
  if (!have("pdflatex")) GTEST_SKIP() << "pdflatex is not installed (apt-get install texlive-latex-base)";
  auto tex = run("cd " + dir + " && pdflatex -interaction=batchmode -halt-on-error timecalc.tex");
  EXPECT_EQ(tex.status, 0) << read_text(dir + "timecalc.log");
}

TEST(SheetCli, PdfOfT3dHasEveryEquationAndRenders) {
  if (!have("pdflatex")) GTEST_SKIP() << "pdflatex is not installed (apt-get install texlive-latex-base)";
  const auto path = out_path("t3d-sheet.pdf");
  auto r = augur("sheet t3d -o " + path);
  ASSERT_EQ(r.status, 0) << r.out;
  if (!have("pdftotext") || !have("pdftoppm")) GTEST_SKIP() << "poppler-utils is not installed";
  auto text = run("pdftotext -layout " + path + " -");
  ASSERT_EQ(text.status, 0) << text.out;
  for (const char* op : kT3dOperations) EXPECT_NE(text.out.find(op), std::string::npos) << op;
  for (const char* law : {"30+0.09*d", "0+200*log(p)+0.0009*p^2*d", "300+6*p+2*log(p)*d", "10+8*log(p)"})
    EXPECT_NE(text.out.find(law), std::string::npos) << law;
  const auto page = out_path("t3d-page");
  auto shot = run("pdftoppm -png -r 50 -f 2 -l 2 -singlefile " + path + " " + page);
  ASSERT_EQ(shot.status, 0) << shot.out;
  EXPECT_GT(read_text(page + ".png").size(), 1000u);
}

TEST(SheetCli, BadModelNamesFileFieldAndReason) {
  const auto model = temp_file("sheet-bad.json",
                               R"({"augur_model": 1, "machine": {"name": "m"}, "provenance": {"source": "t"},
                                   "units": {"time": "us", "size": "bytes"},
                                   "operations": {"bcast": {"regimes": [{"from": 0, "expr": "1 + q"}]}}})");
  auto r = augur("sheet " + model + " -o " + out_path("bad.html"));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find(model + ": operations.bcast.regimes[0].expr: expression '1 + q'"), std::string::npos) << r.out;
}

TEST(SheetCli, BadRawFileNamesFileLineAndField) {
  const auto raw = temp_file("sheet-bad-raw.jsonl", "{\"augur_raw\": 1}\n{\"op\":\"bcast\",\"p\":0}\n");
  auto r = augur("sheet t3d --raw " + raw + " -o " + out_path("bad-raw.html"));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find(raw + ":2:"), std::string::npos) << r.out;
}

TEST(SheetCli, UnknownFormatIsAUsageError) {
  auto r = augur("sheet t3d -o sheet.docx");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("sheet.docx: the sheet's format comes from the extension: .html, .tex or .pdf"), std::string::npos)
      << r.out;
}

// The page as a browser loads it, with no network (an unreachable proxy): every picture is in
// the document and nothing reports to the console.
TEST(SheetCli, HtmlOpensInHeadlessChromiumWithoutConsoleMessages) {
  if (!have("chromium")) GTEST_SKIP() << "chromium is not installed";
  const auto page = out_path("browser-sheet.html"), dom = out_path("browser-sheet.dom"), log = out_path("browser-sheet.log");
  ASSERT_EQ(augur("sheet sp2-mpl -o " + page).status, 0);
  // One profile directory, emptied before each run, so runs of the test leave no profiles behind.
  const auto profile = out_path("browser-sheet-profile");
  auto r = run("rm -rf " + profile + " && timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run "
               "--user-data-dir=" + profile +
               " --proxy-server=127.0.0.1:9 --enable-logging=stderr --v=0 --dump-dom file://" + page + " >" + dom +
               " 2>" + log);
  ASSERT_EQ(r.status, 0) << read_text(log);
  EXPECT_EQ(count(read_text(dom), "<svg"), 8u);  // one per sp2-mpl operation
  EXPECT_EQ(read_text(log).find("CONSOLE"), std::string::npos) << read_text(log);
}
