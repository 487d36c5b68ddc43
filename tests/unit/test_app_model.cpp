// Application models: the seed's mandel, life and outer evaluated against their formulas worked
// out by hand from the T3D and NOW data sheets, and the errors for bad files.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>

#include "app/app_model.hpp"
#include "app/evaluate.hpp"
#include "model/error.hpp"
#include "model/machines.hpp"
#include "report/app_report.hpp"

namespace {

using augur::app::Evaluation;
using augur::model::ModelError;

std::string example(const std::string& name) { return AUGUR_TEST_DATA "/../../examples/models/" + name; }

Evaluation on(const std::string& app, const std::string& machine, const augur::app::Overrides& overrides = {}) {
  static const auto t3d = augur::model::load_machine("t3d");
  static const auto now = augur::model::load_machine("now-lam");
  const auto* m = machine == "t3d" ? &t3d : &now;
  return augur::app::evaluate(augur::app::load_app_model(example(app)), {m}, overrides);
}

// The row at p of the series whose other parameter (d) is `d`.
const augur::app::Row& row(const Evaluation& e, double d, double p) {
  for (const auto& s : e.series)
    if (s.parameters.at(0) == d)
      for (const auto& r : s.rows)
        if (r.p == p) return r;
  throw std::runtime_error("no row");
}

double ln(double x) { return std::log(x); }

std::string error_of(const std::string& text) {
  try {
    augur::app::parse_app_model(text, "app.json");
  } catch (const ModelError& e) {
    return e.what();
  }
  return "(no error)";
}

const char* const kMinimal = R"({"augur_app": 1, "name": "tiny",
  "parameters": {"p": {"values": [1, 2]}},
  "phases": [{"name": "work", "expr": "PHASE"}]})";

std::string with_phase(const std::string& expr) {
  std::string text = kMinimal;
  return text.replace(text.find("PHASE"), 5, expr);
}

}  // namespace

// tmandel(p,d,c) = d*(d/p)*c*8*maxmandeliter + tbarrier(p); c = 0.1 µs on the T3D, the barrier
// 10 + 8 log p.
TEST(AppModel, MandelOnT3dIsTheSeedsFormula) {
  auto e = on("mandel.json", "t3d");
  ASSERT_EQ(e.phase_names, (std::vector<std::string>{"compute", "barrier"}));
  for (double d : {20.0, 100.0, 500.0})
    for (double p : {1.0, 4.0, 32.0}) {
      const auto& r = row(e, d, p);
      EXPECT_NEAR(r.phases[0], d * (d / p) * 0.1 * 8 * 256, 1e-6) << d << " " << p;
      EXPECT_NEAR(r.phases[1], 10 + 8 * ln(p), 1e-9);
      EXPECT_NEAR(r.total, r.phases[0] + r.phases[1], 1e-9);
      EXPECT_NEAR(r.speedup, (d * d * 0.1 * 8 * 256 + 10) / r.total, 1e-9);
    }
  EXPECT_TRUE(e.notes.empty());
}

// The NOW model has no compute step: the seed's placeholder 1 µs, said in a note; its barrier
// is 9000 p.
TEST(AppModel, MandelOnNowUsesThePlaceholderStepAndSaysSo) {
  auto e = on("mandel.json", "now-lam");
  const auto& r = row(e, 20, 8);
  EXPECT_NEAR(r.phases[0], 20 * (20.0 / 8) * 1 * 8 * 256, 1e-6);
  EXPECT_NEAR(r.phases[1], 9000 * 8, 1e-9);
  ASSERT_EQ(e.notes.size(), 1u);
  EXPECT_NE(e.notes[0].find("now-lam has no compute step"), std::string::npos) << e.notes[0];
  // 819200/p + 9000 p µs for d = 20: the best p is 8, where the seed's measurements also put it.
  for (const auto& s : e.series) {
    if (s.parameters[0] == 20) {
      EXPECT_EQ(s.rows[s.best].p, 8);
    }
  }
}

// titer = 2 tsend(d) + 2 trecv(d) + (d/p) c d + d (d/p) c; ttotal = 100 titer + tbarrier(p).
// At d = 256 ints (2 KiB, the large-message laws): send 30 + 0.09 d, recv 60 + 0.5 d.
TEST(AppModel, LifeOnT3dIsTheSeedsFormula) {
  auto e = on("life.json", "t3d");
  const double d = 256, p = 8, c = 0.1;
  const auto& r = row(e, d, p);
  EXPECT_NEAR(r.phases[0], 100 * (2 * (30 + 0.09 * d) + 2 * (60 + 0.5 * d)), 1e-6);
  EXPECT_NEAR(r.phases[1], 100 * ((d / p) * c * d + d * (d / p) * c), 1e-6);
  EXPECT_NEAR(r.phases[2], 10 + 8 * ln(p), 1e-9);
  // d = 64 ints is 512 B, still above the T3D's 32-int break.
  EXPECT_NEAR(row(e, 64, 1).phases[0], 100 * (2 * (30 + 0.09 * 64) + 2 * (60 + 0.5 * 64)), 1e-6);
}

TEST(AppModel, LifeOnAMachineWithoutSendSaysWhatIsMissingAndWhere) {
  try {
    on("life.json", "now-lam");
    FAIL() << "life evaluated on a machine without send";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("life.json:13: terms[0].expr: machine 'now-lam' has no model of 'send' (tsend)"),
              std::string::npos)
        << e.what();
  }
}

// ttotal = tallgather(p, d/p) + d·50c + d·(d/p)·50c + tallreduce(p, 1) + d·50c + tbarrier(p).
TEST(AppModel, OuterOnT3dIsTheSeedsFormula) {
  auto e = on("outer.json", "t3d");
  const double d = 1000, p = 4, c = 0.1;
  const auto& r = row(e, d, p);
  ASSERT_EQ(r.phases.size(), 6u);
  EXPECT_NEAR(r.phases[0], 40 * p + 0.3 * p * (d / p), 1e-9);  // 250 ints = 2000 B: large allgather
  EXPECT_NEAR(r.phases[1], d * 50 * c, 1e-9);
  EXPECT_NEAR(r.phases[2], d * (d / p) * 50 * c, 1e-6);
  EXPECT_NEAR(r.phases[3], 300 + 6 * p + 2 * ln(p) * 1, 1e-9);  // 1 int: small allreduce
  EXPECT_NEAR(r.phases[4], d * 50 * c, 1e-9);
  EXPECT_NEAR(r.phases[5], 10 + 8 * ln(p), 1e-9);
}

TEST(AppModel, OuterOnNowIsTheSeedsFormula) {
  auto e = on("outer.json", "now-lam");
  const double d = 100, p = 8, c = 1;
  const auto& r = row(e, d, p);
  EXPECT_NEAR(r.phases[0], 8000 * p + 4 * p * p * (d / p), 1e-9);
  EXPECT_NEAR(r.phases[3], 10000 + 500 * p * p + 2 * 1 * p * p, 1e-9);
  EXPECT_NEAR(r.phases[2], d * (d / p) * 50 * c, 1e-6);
}

TEST(AppModel, SettingsReplaceConstantsNodeTermsAndParameters) {
  auto e = on("mandel.json", "t3d", {{"tcompute", 0.5}, {"d", 50}, {"maxmandeliter", 10}});
  ASSERT_EQ(e.series.size(), 1u);
  EXPECT_NEAR(row(e, 50, 2).phases[0], 50 * 25 * 0.5 * 8 * 10, 1e-9);
  EXPECT_THROW(on("mandel.json", "t3d", {{"nosuch", 1}}), std::invalid_argument);
}

TEST(AppModel, ErrorsNameFileLineFieldAndReason) {
  EXPECT_EQ(error_of(with_phase("2 * q")),
            "app.json:3: phases[0].expr: expression '2 * q': 'q' is not defined (not a parameter, constant, earlier term or "
            "node term)");
  EXPECT_EQ(error_of(with_phase("tsendd(2, 8)")),
            "app.json:3: phases[0].expr: expression 'tsendd(2, 8)': 'tsendd': no operation 'sendd' in the catalog "
            "(docs/model-format.md)");
  EXPECT_NE(error_of(with_phase("2 * (p")).find("app.json:3: phases[0].expr: expression '2 * (p': "), std::string::npos);
  EXPECT_NE(error_of(with_phase("tbcast(p)")).find("phases[0].expr"), std::string::npos);  // too few arguments
  EXPECT_EQ(error_of(R"({"augur_app": 1, "name": "x", "parameters": {"d": {"values": [1]}}, "phases": []})"),
            "app.json:1: parameters: missing the parameter 'p' (processes)");
  EXPECT_EQ(error_of("{\"augur_app\": 1,\n \"name\": \"x\",\n \"parameters\": {\"p\": {\"from\": 4, \"to\": 2}},\n"
                     " \"phases\": [{\"name\": \"a\", \"expr\": \"1\"}]}"),
            "app.json:3: parameters.p.to: must not be below from (4)");
  EXPECT_EQ(error_of("{\"augur_app\": 1,\n \"name\": \"x\",,"), "app.json:2: (document): not valid JSON (truncated or malformed) at byte 31");
  EXPECT_NE(error_of(R"({"augur_app": 1, "name": "x", "parameters": {"p": {"from": 1, "to": 1e9}}, "phases": []})")
                .find("parameters.p: gives 1000000000 values; at most 4096"),
            std::string::npos);
}

TEST(AppModel, TermsMayUseOnlyTheTermsBeforeThem) {
  auto text = std::string(R"({"augur_app": 1, "name": "x", "parameters": {"p": {"values": [1]}},
    "terms": [{"name": "a", "expr": "b + 1"}, {"name": "b", "expr": "2"}],
    "phases": [{"name": "w", "expr": "a"}]})");
  EXPECT_NE(error_of(text).find("terms[0].expr: expression 'b + 1': 'b' is not defined"), std::string::npos) << error_of(text);
}

TEST(AppReport, CsvHasAColumnPerPhaseAndARowPerPoint) {
  auto e = on("mandel.json", "t3d", {{"d", 100}});
  std::ostringstream csv;
  augur::report::write_app_csv(e, csv);
  std::istringstream lines(csv.str());
  std::string header, first;
  std::getline(lines, header);
  std::getline(lines, first);
  EXPECT_EQ(header, "machine,d,p,compute_us,barrier_us,total_us,speedup");
  EXPECT_EQ(first.rfind("t3d,100,1,2048000,10,2048010,1", 0), 0u) << first;
  auto plots = augur::report::app_plots("mandel", e);
  ASSERT_EQ(plots.size(), 3u);
  EXPECT_EQ(plots[2].name, "mandel-phases-t3d");
  EXPECT_TRUE(plots[0].log_x);
  auto summary = augur::report::format_app_summary("mandel", e);
  EXPECT_NE(summary.find("t3d d=100"), std::string::npos) << summary;
}

namespace {

Evaluation tiny_on(const std::string& expr, const std::string& machine) {
  static const auto sp2 = augur::model::load_machine("sp2-mpl");
  static const auto t3d = augur::model::load_machine("t3d");
  const auto app = augur::app::parse_app_model(with_phase(expr), "app.json");
  return augur::app::evaluate(app, {machine == "t3d" ? &t3d : &sp2}, {});
}

}  // namespace

// LFK1 on the POWER2 thin node: 1.5 cycles at 66.7 MHz an iteration (docs/node-model.md).
TEST(AppModel, TloopIsTheNodesBoundInMicroseconds) {
  auto e = tiny_on("1000 * tloop(1, 0, 2, 2, 1) / p", "sp2-mpl");
  EXPECT_NEAR(e.series.at(0).rows.at(1).phases.at(0), 1000 * 1.5 / 66.7 / 2, 1e-12);
  // LFK5 with its dependence path of 3 cycles; a divide keeps an FPU 17 cycles.
  auto x = tiny_on("tloopx(1, 1, 0, 0, 0, 2, 1, 3, 0, 0) + tloopx(0, 0, 0, 1, 0, 1, 0, 0, 0, 0)", "sp2-mpl");
  EXPECT_NEAR(x.series.at(0).rows.at(0).phases.at(0), 3 / 66.7 + 8.5 / 66.7, 1e-12);
}

TEST(AppModel, TloopNeedsANodeModel) {
  EXPECT_EQ(error_of(with_phase("tloop(1, 2)")).find("app.json:3: phases[0].expr: "), 0u) << error_of(with_phase("tloop(1, 2)"));
  try {
    tiny_on("tloop(1, 0, 2, 2, 1)", "t3d");
    FAIL() << "t3d has no node model";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("compute.flops"), std::string::npos) << e.what();
    EXPECT_EQ(e.field(), "phases[0].expr");
  }
  EXPECT_THROW(tiny_on("tloop(-1, 0, 0, 1, 0)", "sp2-mpl"), ModelError);
}
