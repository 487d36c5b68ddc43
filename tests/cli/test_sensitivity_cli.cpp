// `augur sensitivity` as a user runs it: every point it samples is what `augur sim` predicts with
// that parameter scaled (given directly: --loggops, --topology, a model file with the law
// scaled, --compute-scale), a halo whose latency hides behind its compute up to its tolerance,
// the issue's halo whose every step waits for one latency, plots, and errors that name the field and the reason and write nothing.
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
std::string halo(int ranks, const std::string& bytes, int steps, const std::string& compute = "10us") {
  return fmt::format("ranks {}\nranks 0..N-1 {{\n  repeat {} {{\n    irecv rank-1 {b}\n    irecv rank+1 {b}\n"
                     "    isend rank-1 {b}\n    isend rank+1 {b}\n    compute {c}\n    waitall\n  }}\n}}\n",
                     ranks, steps, fmt::arg("b", bytes), fmt::arg("c", compute));
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
      "recv": {"regimes": [{"from": 0, "expr": "RECV"}]},
      "isend1": {"regimes": [{"from": 0, "expr": "0.5"}]}, "irecv1": {"regimes": [{"from": 0, "expr": "0.25"}]}}})";
  const auto with = [&](const std::string& send, const std::string& recv) {
    auto m = model;
    m.replace(m.find("SEND"), 4, send);
    m.replace(m.find("RECV"), 4, recv);
    return m;
  };
  const std::string send = "2 + d/1000", recv = "10 + d/100";
  const auto base = temp_file("toy.json", with(send, recv));
  const auto file = temp_file("pp.sched", "ranks 2\nrank 0 { repeat 4 { send 1 1KiB recv 1 } }\n"
                                          "rank 1 { repeat 4 { recv 0 send 0 1KiB } }\n");
  const auto j = json_of("sensitivity --json --factors 3 --growth 5 -p law:send,law:recv --machine " + base + " " + file);
  const double send3 = parameter(j, "law:send")["points"][0]["seconds"];
  const double recv3 = parameter(j, "law:recv")["points"][0]["seconds"];
  EXPECT_NEAR(send3, sim_time("--machine " + temp_file("toy-send3.json", with("(" + send + ")*3", recv)) + " " + file),
              1e-9 * send3);
  EXPECT_NEAR(recv3, sim_time("--machine " + temp_file("toy-recv3.json", with(send, "(" + recv + ")*3")) + " " + file),
              1e-9 * recv3);
  // The ping-pong is priced by the receive's law (docs/sim.md), so it alone moves this run.
  EXPECT_GT(recv3, j["baseline_seconds"].get<double>() * 2);
}

// A halo whose compute overlaps its messages: 1 KiB each way, 200 µs of compute between the
// sends and the wait, so with LogGOPS's L = 10 µs the messages arrive while the rank computes
// and the run does not see the latency. Once the latency outgrows the compute, every step waits
// for one latency more: the slope past the tolerance is the number of steps.
TEST(SensitivityCli, HaloLatencyIsHiddenUpToItsTolerance) {
  const int steps = 35;
  const auto file = temp_file("halo64.sched", halo(64, "1KiB", steps, "200us"));
  const std::string net = " --network loggops --loggops L=10us,o=1.5us,G=6ns ";
  const auto j = json_of("sensitivity --json -p L --factors 1,2,16,24,32,48 --growth 1,2,5 " + file + net);
  const auto& L = parameter(j, "L");
  const auto& pts = L["points"];
  const double t1 = pts[0]["seconds"], t2 = pts[1]["seconds"], t16 = pts[2]["seconds"];
  EXPECT_EQ(t1, j["baseline_seconds"].get<double>());
  EXPECT_EQ(t1, t2);  // 10 µs, 20 µs and 160 µs: the same run
  EXPECT_EQ(t1, t16);
  EXPECT_EQ(L["slope"]["per_unit"].get<double>(), 0);
  EXPECT_EQ(L["slope"]["share"].get<double>(), 0);
  for (std::size_t i = 3; i + 1 < pts.size(); ++i) {  // 240 µs to 480 µs: one latency a step
    const double dt = pts[i + 1]["seconds"].get<double>() - pts[i]["seconds"].get<double>();
    const double dl = 10e-6 * (pts[i + 1]["factor"].get<double>() - pts[i]["factor"].get<double>());
    EXPECT_NEAR(dt / dl, steps, 1e-9 * steps) << "from ×" << pts[i]["factor"];
  }
  ASSERT_EQ(L["tolerances"].size(), 3u);
  const double precision = j["tolerance_search"]["precision"];
  for (const auto& tol : L["tolerances"]) {
    const double f = tol["factor"], target = t1 * (1 + tol["growth"].get<double>());
    EXPECT_GT(f, 16);  // hidden up to 160 µs at least
    EXPECT_GE(sim_time(file + net + "--scale L=" + exact(f)), target);
    EXPECT_LT(sim_time(file + net + "--scale L=" + exact(f * (1 - precision))), target);
    // On the line of one latency a step through the runs at ×24 and ×32.
    const double at24 = pts[3]["seconds"];
    EXPECT_NEAR(f, 24 - (at24 - target) / (steps * 10e-6), precision * f);
    EXPECT_LE(tol["runs"].get<int>(), j["tolerance_search"]["max_runs_each"].get<int>());
  }
}

// The issue's halo, 16 KiB each way and 10 µs of compute: on LogGOPS the receiver's processor
// takes each message's bytes (o + s'·G, as LogGOPSim does), so the last message of a step cannot
// hide behind the others and each step waits for one latency: the slope is the number of steps.
TEST(SensitivityCli, HaloOfShortComputeWaitsForOneLatencyAStep) {
  const int steps = 35;
  const auto file = temp_file("halo64s.sched", halo(64, "16KiB", steps, "10us"));
  const std::string net = " --network loggops --loggops L=3us,o=1.5us,g=0,G=6ns ";
  const auto j = json_of("sensitivity --json -p L --factors 1,2 --growth 1 " + file + net);
  const auto& L = parameter(j, "L");
  EXPECT_NEAR(L["slope"]["per_unit"].get<double>(), steps, 1e-9 * steps);
  EXPECT_TRUE(L["slope"]["linear"].get<bool>());
  const double t1 = L["points"][0]["seconds"], t2 = L["points"][1]["seconds"];
  EXPECT_NEAR(t2 - t1, steps * 3e-6, 1e-9 * t1);
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
  // Slopes per a step a person thinks in: a second of a time, a ns/B of a time per byte, +1% of
  // a factor; the critical path's untimed stretches as such, not as a made-up MPI call.
  for (const auto* unit : {" s per s ", " per ns/B ", " per +1% "}) EXPECT_NE(r.out.find(unit), std::string::npos) << unit;
  EXPECT_NE(r.out.find("untraced "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("MPI_Untraced"), std::string::npos) << r.out;
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
