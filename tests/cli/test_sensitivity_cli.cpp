// `augur sensitivity` as a user runs it: every point it samples is what `augur sim` predicts with
// that parameter scaled (given directly: --loggops, --topology, a model file with the law
// scaled, --compute-scale), the issue's halo whose latency hides behind the messages' bytes,
// plots, and errors that name the field and the reason and write nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "augur_runner.hpp"

using augur_test::augur;
using augur_test::temp_file;
namespace fs = std::filesystem;

namespace {

// A 1-D periodic halo: post both receives, send both ways, compute, wait for all four.
std::string halo(int ranks, const std::string& bytes, int steps) {
  return fmt::format("ranks {}\nranks 0..N-1 {{\n  repeat {} {{\n    irecv rank-1 {b}\n    irecv rank+1 {b}\n"
                     "    isend rank-1 {b}\n    isend rank+1 {b}\n    compute 10us\n    waitall\n  }}\n}}\n",
                     ranks, steps, fmt::arg("b", bytes));
}

nlohmann::json json_of(const std::string& command) {
  const auto r = augur(command);
  EXPECT_EQ(r.status, 0) << command << "\n" << r.out;
  return nlohmann::json::parse(r.out);
}

double sim_time(const std::string& args) { return json_of("sim --json --no-progress " + args)["predicted_seconds"]; }

std::string exact(double v) { return fmt::format("{:.17g}", v); }

const nlohmann::json& parameter(const nlohmann::json& j, const std::string& name) {
  for (const auto& p : j["parameters"])
    if (p["name"] == name) return p;
  throw std::runtime_error("no parameter " + name);
}

}  // namespace

TEST(SensitivityCli, EveryLogGOPSPointIsADirectSimWithThatParameter) {
  const auto file = temp_file("halo8.sched", halo(8, "4KiB", 5));
  const std::string net = " --network loggops --loggops L=3us,o=1.5us,g=1us,G=6ns ";
  const auto j = json_of("sensitivity --json --factors 0.25,1,4,16 --growth 5 " + file + net);
  const double L = 3e-6, o = 1.5e-6, g = 1e-6, G = 6e-9;
  for (const auto& name : {"L", "o", "g", "G"}) {
    for (const auto& pt : parameter(j, name)["points"]) {
      const double f = pt["factor"];
      const auto v = [&](const char* n, double x) { return std::string(n) == name ? x * f : x; };
      const std::string direct = fmt::format(" --network loggops --loggops L={},o={},g={},G={} ", exact(v("L", L)),
                                             exact(v("o", o)), exact(v("g", g)), exact(v("G", G)));
      const double t = pt["seconds"];
      EXPECT_NEAR(t, sim_time(file + direct), 1e-9 * t) << name << " x" << f;
      EXPECT_NEAR(t, sim_time(file + net + fmt::format("--scale {}={}", name, exact(f))), 1e-9 * t);
    }
  }
  for (const auto& pt : parameter(j, "compute")["points"]) {
    const double t = pt["seconds"];
    EXPECT_NEAR(t, sim_time(file + net + "--scale compute=" + exact(pt["factor"])), 1e-9 * t);
  }
}

TEST(SensitivityCli, TopologyPointsAreTheMachineWithItsLinksScaled) {
  const auto file = temp_file("halo8t.sched", halo(8, "64KiB", 3));
  const auto j = json_of("sensitivity --json --factors 0.5,2 --growth 5 --network topology --topology "
                         "ring:8,latency=2us,bandwidth=1GB/s " + file);
  for (const auto& name : {"L", "G"})
    for (const auto& pt : parameter(j, name)["points"]) {
      const double f = pt["factor"];
      const double latency = std::string(name) == "L" ? 2e-6 * f : 2e-6;
      const double bandwidth = std::string(name) == "G" ? 1e9 / f : 1e9;
      const double t = pt["seconds"];
      EXPECT_NEAR(t, sim_time(fmt::format("{} --network topology --topology ring:8,latency={}s,bandwidth={}B/s", file,
                                          exact(latency), exact(bandwidth))), 1e-9 * t) << name << " x" << f;
    }
}

TEST(SensitivityCli, ALawScaledIsTheModelFileWithThatLawScaled) {
  const std::string model = R"({"augur_model": 1, "machine": {"name": "toy"}, "provenance": {"source": "test"},
      "units": {"time": "us", "size": "bytes"}, "network": {"eager_limit": 65536}, "operations": {
      "send": {"regimes": [{"from": 0, "expr": "SEND"}]},
      "recv": {"regimes": [{"from": 0, "expr": "10 + d/100"}]},
      "isend1": {"regimes": [{"from": 0, "expr": "0.5"}]}, "irecv1": {"regimes": [{"from": 0, "expr": "0.25"}]}}})";
  const auto with = [&](const std::string& send) {
    auto m = model;
    m.replace(m.find("SEND"), 4, send);
    return m;
  };
  const auto base = temp_file("toy.json", with("2 + d/1000"));
  const auto twice = temp_file("toy2.json", with("(2 + d/1000)*3"));
  const auto file = temp_file("pp.sched", "ranks 2\nrank 0 { repeat 4 { send 1 1KiB recv 1 } }\n"
                                          "rank 1 { repeat 4 { recv 0 send 0 1KiB } }\n");
  const auto j = json_of("sensitivity --json --factors 3 --growth 5 -p law:send,law:recv --machine " + base + " " + file);
  const double t = parameter(j, "law:send")["points"][0]["seconds"];
  EXPECT_NEAR(t, sim_time("--machine " + twice + " " + file), 1e-9 * t);
  EXPECT_GT(t, j["baseline_seconds"].get<double>());
}

// The issue's example: latency hidden behind the bytes of the other messages up to a point.
TEST(SensitivityCli, HaloLatencyIsHiddenUpToItsTolerance) {
  const auto file = temp_file("halo64.sched", halo(64, "16KiB", 35));
  const std::string net = " --network loggops --loggops L=3us,o=1.5us,g=0,G=6ns ";
  const auto j = json_of("sensitivity --json -p L --factors 1,2,100 " + file + net);
  const auto& L = parameter(j, "L");
  const double t1 = L["points"][0]["seconds"], t2 = L["points"][1]["seconds"], t100 = L["points"][2]["seconds"];
  EXPECT_EQ(t1, t2);  // 3 µs and 6 µs: the same run time
  EXPECT_GT(t100, t1 * 1.05);
  EXPECT_EQ(L["slope"]["per_unit"].get<double>(), 0);
  for (const auto& tol : L["tolerances"]) {
    const double f = tol["factor"], target = t1 * (1 + tol["growth"].get<double>());
    EXPECT_GE(sim_time(file + net + "--scale L=" + exact(f)), target);
    EXPECT_LT(sim_time(file + net + "--scale L=" + exact(f * (1 - 1e-6))), target);
  }
}

TEST(SensitivityCli, TablesReadInUnitsAndPlotsAreDrawn) {
  const auto file = temp_file("halo8p.sched", halo(8, "4KiB", 5));
  const auto dir = fs::temp_directory_path() / "augur-sensitivity-plots";
  fs::remove_all(dir);
  const auto r = augur("sensitivity " + file + " --network loggops --loggops L=3us,o=1.5us,G=6ns --plot " + dir.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("L (latency, 3 µs): slope"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("G (time per byte (1/bandwidth), 6 ns/B)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("e-0"), std::string::npos) << r.out;
  for (const auto* name : {"sensitivity-all.png", "sensitivity-L.svg", "sensitivity-compute.png", "sensitivity.gp"})
    EXPECT_TRUE(fs::exists(dir / name)) << name;
}

TEST(SensitivityCli, BadParametersAndFactorsAreRefusedAndNothingIsWritten) {
  const auto file = temp_file("halo8e.sched", halo(8, "4KiB", 2));
  const auto dir = fs::temp_directory_path() / "augur-sensitivity-none";
  fs::remove_all(dir);
  const std::string net = " --network loggops --loggops L=3us,o=1.5us ";
  auto r = augur("sensitivity " + file + net + "-p L,bandwidth --plot " + dir.string());
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("--parameters 'bandwidth': the loggops network here has no such parameter (it has: L, o, compute)"),
            std::string::npos) << r.out;
  r = augur("sensitivity " + file + net + "--factors 0,2 --plot " + dir.string());
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("--factors '0,2': '0' is not a positive number"), std::string::npos) << r.out;
  r = augur("sensitivity " + file + net + "--noise gamma:1us");
  EXPECT_NE(r.out.find("unknown distribution 'gamma'"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir));
  r = augur("sim " + file + net + "--scale G=2");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("parameter 'G': the LogGOPS network has no such parameter"), std::string::npos) << r.out;
  r = augur("sim " + file + net + "--scale L=-1");
  EXPECT_NE(r.out.find("--scale 'L=-1': the factor '-1' must be a positive number"), std::string::npos) << r.out;
}
