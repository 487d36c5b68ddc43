// `augur fit` as a user runs it: raw measurements in, a model file out that `augur calc` reads.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include "augur_runner.hpp"
#include "readable_text.hpp"

namespace fs = std::filesystem;
using augur_test::augur;
using readable_text::first_exponent;

namespace {

class FitCli : public ::testing::Test {
 protected:
  fs::path dir = fs::temp_directory_path() / ("augur-fit-cli-" + std::to_string(::getpid()));
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }

  // A ping-pong with an eager-to-rendezvous jump at 4 KiB and a log-p barrier, 2% spread.
  // `compute`, when given, is the header's compute section (JSON text).
  fs::path write_raw(const std::string& compute = "") {
    auto path = dir / "raw.jsonl";
    std::ofstream out(path);
    out << R"({"augur_raw":1,"machine":{"name":"synthetic"},"provenance":{"source":"fit CLI test"})"
        << (compute.empty() ? "" : R"(,"compute":)" + compute) << "}\n";
    for (double bytes = 1; bytes <= 65536; bytes *= 2) {
      double us = bytes < 4096 ? 2 + 0.001 * bytes : 9 + 0.0005 * bytes;
      double t = us * 1e-6;
      out << nlohmann::json{{"op", "pingpong"}, {"p", 2},          {"bytes", bytes},    {"min", 0.98 * t},
                            {"median", t},      {"mean", 1.001 * t}, {"max", 1.02 * t}, {"std", 0.01 * t},
                            {"reps", 20}}
                 .dump()
          << "\n";
    }
    for (int p : {2, 4, 8, 16, 32, 64}) {
      double t = (1 + 3 * std::log2(p)) * 1e-6;
      out << nlohmann::json{{"op", "barrier"}, {"p", p},        {"bytes", 0},       {"min", 0.98 * t}, {"median", t},
                            {"mean", t},       {"max", 1.02 * t}, {"std", 0.01 * t}, {"reps", 20}}
                 .dump()
          << "\n";
    }
    return path;
  }
};

}  // namespace

TEST_F(FitCli, FittedModelAnswersCalcNearTheGeneratingLaw) {
  auto raw = write_raw();
  auto model = dir / "model.json";
  auto fit = augur("fit " + raw.string() + " -o " + model.string());
  ASSERT_EQ(fit.status, 0) << fit.out;
  auto calc = augur("calc --machine " + model.string() + " pingpong 2 1000 --json");
  ASSERT_EQ(calc.status, 0) << calc.out;
  auto j = nlohmann::json::parse(calc.out);
  EXPECT_NEAR(j["seconds"]["avg"].get<double>(), 3e-6, 0.1e-6);
  auto large = nlohmann::json::parse(
      augur("calc --machine " + model.string() + " pingpong 2 32KiB --json").out);
  EXPECT_NEAR(large["seconds"]["avg"].get<double>(), (9 + 0.0005 * 32768) * 1e-6, 0.5e-6);
  auto barrier = nlohmann::json::parse(
      augur("calc --machine " + model.string() + " barrier 16 0 --json").out);
  EXPECT_NEAR(barrier["seconds"]["avg"].get<double>(), 13e-6, 0.5e-6);
}

TEST_F(FitCli, SummaryGivesRegimesInKiBAndNamesTheMPICall) {
  auto fit = augur("fit " + write_raw().string() + " -o " + (dir / "m.json").string());
  ASSERT_EQ(fit.status, 0) << fit.out;
  EXPECT_TRUE(std::regex_search(fit.out, std::regex(R"(\npingpong \(MPI_Send/MPI_Recv ping-pong\): 2 regimes: \[0 B, 4 KiB\): .*; \[4 KiB, inf\): )")))
      << fit.out;
  EXPECT_NE(fit.out.find("barrier (MPI_Barrier): 1 regime: [0 B, inf): "), std::string::npos) << fit.out;
  EXPECT_EQ(first_exponent(fit.out), "") << fit.out;
}

TEST_F(FitCli, TruncatedRawFileFailsNamingTheLineAndWritesNothing) {
  auto raw = write_raw();
  {
    std::ofstream out(raw, std::ios::app);
    out << R"({"op":"pingpong","p":2,"bytes":)";
  }
  auto model = dir / "model.json";
  auto fit = augur("fit " + raw.string() + " -o " + model.string());
  EXPECT_NE(fit.status, 0);
  EXPECT_NE(fit.out.find("raw.jsonl:25"), std::string::npos) << fit.out;
  EXPECT_FALSE(fs::exists(model));
}

TEST_F(FitCli, ComputeSectionOfTheRawHeaderIsInTheModel) {
  auto raw = write_raw(R"({"seconds_per_step":2e-9,"flops":2e10,"memory_bandwidth":1.5e10,)"
                       R"("cache_sweep":[{"bytes":4096,"seconds_per_access":1.4e-9},{"bytes":8192,"seconds_per_access":1.4e-9}]})");
  auto model = dir / "model.json";
  auto fit = augur("fit " + raw.string() + " -o " + model.string());
  ASSERT_EQ(fit.status, 0) << fit.out;
  auto compute = nlohmann::json::parse(std::ifstream(model))["compute"];
  EXPECT_EQ(compute["seconds_per_step"], 2e-9);
  EXPECT_EQ(compute["flops"], 2e10);
  EXPECT_EQ(compute["memory_bandwidth"], 1.5e10);
  EXPECT_EQ(compute["cache_sweep"].size(), 2u);
}

TEST_F(FitCli, BadComputeSectionFailsNamingTheLineAndField) {
  auto raw = write_raw(R"({"seconds_per_step":2e-9,"flops":"fast"})");
  auto model = dir / "model.json";
  auto fit = augur("fit " + raw.string() + " -o " + model.string());
  EXPECT_NE(fit.status, 0);
  EXPECT_NE(fit.out.find("raw.jsonl:1: compute.flops: expected a number, found string"), std::string::npos) << fit.out;
  EXPECT_FALSE(fs::exists(model));
}

TEST_F(FitCli, UnknownOperationIsRejected) {
  auto raw = dir / "bad.jsonl";
  std::ofstream(raw) << R"({"augur_raw":1})" << "\n"
                     << R"({"op":"bcats","p":2,"bytes":8,"min":1,"median":1,"mean":1,"max":1,"std":0,"reps":1})"
                     << "\n";
  auto fit = augur("fit " + raw.string() + " -o " + (dir / "m.json").string());
  EXPECT_NE(fit.status, 0);
  EXPECT_NE(fit.out.find("bcats"), std::string::npos) << fit.out;
}

// `augur scale` draws time, speedup and ratio plots with gnuplot from mkgraph files.
TEST_F(FitCli, ScaleDrawsTimeSpeedupAndRatioPlots) {
  auto write = [&](const std::string& name, int p, double total) {
    std::ofstream(dir / name) << "# " << p << " 1000\ncompute " << total * 0.8 << "\ntotal " << total << "\n";
    return (dir / name).string();
  };
  std::string first = write("m1.txt", 1, 8) + " " + write("m2.txt", 2, 4.4) + " " + write("m4.txt", 4, 2.6);
  std::string second = write("p1.txt", 1, 9) + " " + write("p2.txt", 2, 5) + " " + write("p4.txt", 4, 3);
  auto out = dir / "plots";
  auto r = augur("scale " + first + " --versus " + second + " -o " + out.string());
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char* svg : {"time-total.svg", "time-compute.svg", "speedup.svg", "ratio.svg"}) {
    ASSERT_TRUE(fs::exists(out / svg)) << svg;
    EXPECT_GT(fs::file_size(out / svg), 2000u) << svg;
  }
  std::ifstream speedup(out / "speedup.dat");
  std::string header, line1, line2;
  std::getline(speedup, header);
  std::getline(speedup, line1);
  std::getline(speedup, line2);
  EXPECT_EQ(line2, "2 1.81818182");  // 8 / 4.4
  auto bad = augur("scale " + (dir / "missing.txt").string() + " -o " + out.string());
  EXPECT_NE(bad.status, 0);
}

TEST_F(FitCli, ScaleListsTheRunsAndPlotsInAUnitForReading) {
  auto write = [&](const std::string& name, int p, double total) {
    std::ofstream(dir / name) << "# " << p << " 1000\ncompute " << total * 0.8 << "\ntotal " << total << "\n";
    return (dir / name).string();
  };
  const auto runs = write("m2.txt", 2, 0.0046) + " " + write("m4.txt", 4, 0.0025);
  auto r = augur("scale " + runs + " --no-draw -o " + (dir / "plots").string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("     2         1000       4.6 ms  "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("     4         1000       2.5 ms  "), std::string::npos) << r.out;
  std::ifstream in(dir / "plots" / "scale.gp");
  const std::string script{std::istreambuf_iterator<char>(in), {}};
  EXPECT_NE(script.find("set ylabel 'time (ms)'\nplot 'time-total.dat' using 1:($2*1000)"), std::string::npos) << script;
}
