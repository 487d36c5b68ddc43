// `augur diff` as a user runs it: exact crossovers of two hand-written machines, and the faster
// machine of t3d and now-lam at 8 B and 64 KiB on 8 processes checked against their equations.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "augur_runner.hpp"

using namespace augur_test;

namespace {

const char* const kAlpha = R"({"augur_model": 1, "machine": {"name": "alpha"}, "provenance": {"source": "by hand"},
  "units": {"time": "us", "size": "bytes"},
  "operations": {"send": {"regimes": [{"from": 0, "expr": "10 + 0.1*d"}]},
                 "bcast": {"regimes": [{"from": 0, "expr": "5*p + 0.01*p*d"}]}}})";
const char* const kBeta = R"({"augur_model": 1, "machine": {"name": "beta"}, "provenance": {"source": "by hand"},
  "units": {"time": "us", "size": "bytes"},
  "operations": {"send": {"regimes": [{"from": 0, "expr": "20 + 0.05*d"}]},
                 "bcast": {"regimes": [{"from": 0, "expr": "50 + 0.002*p*d"}]}}})";

const nlohmann::json& operation(const nlohmann::json& diff, const std::string& name) {
  for (const auto& op : diff["operations"])
    if (op["operation"] == name) return op;
  throw std::runtime_error("no " + name);
}

}  // namespace

// send: 10 + 0.1 d = 20 + 0.05 d at 200 B; bcast at p = 8: 40 + 0.08 d = 50 + 0.016 d at 156.25 B.
// Each test writes its own copies: ctest runs them side by side.
TEST(DiffCli, JsonGivesTheCrossoversWorkedOutByHand) {
  const auto a = temp_file("diff-json-alpha.json", kAlpha), b = temp_file("diff-json-beta.json", kBeta);
  auto r = augur("diff " + a + " " + b + " -p 8 --json");
  ASSERT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  const auto& send = operation(j, "send")["crossovers"];
  ASSERT_EQ(send.size(), 1u);
  EXPECT_NEAR(send[0]["bytes"].get<double>(), 200, 1e-9);
  EXPECT_EQ(send[0]["below"], "alpha");
  EXPECT_EQ(send[0]["above"], "beta");
  const auto& bcast = operation(j, "bcast")["crossovers"];
  ASSERT_EQ(bcast.size(), 1u);
  EXPECT_EQ(bcast[0]["p"], 8);
  EXPECT_NEAR(bcast[0]["bytes"].get<double>(), 156.25, 1e-9);
}

TEST(DiffCli, TextNamesTheCrossoverAndDrawsTheRatio) {
  const auto a = temp_file("diff-text-alpha.json", kAlpha), b = temp_file("diff-text-beta.json", kBeta);
  const auto dir = testing::TempDir() + "diff-plots";
  auto r = augur("diff " + a + " " + b + " -p 8 --plot " + dir);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("p = 8    alpha faster below 156.2 B, beta from there"), std::string::npos) << r.out;
  EXPECT_NE(read_text(dir + "/ratio-p8.svg").find("<svg"), std::string::npos);
}

// Each operation both machines model, at 8 B and 64 KiB on 8 processes (point-to-point on 2),
// from the equations of Appendix B (T3D, ints of 8 B, small below 257 B) and section 4.2 (NOW,
// ints of 4 B). Times in µs.
TEST(DiffCli, T3dAgainstNowNamesTheFasterMachineAsTheEquationsDo) {
  auto r = augur("diff t3d now-lam -p 8 --sizes 8,64KiB --json");
  ASSERT_EQ(r.status, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  using Law = std::function<double(double p, double bytes)>;
  auto t3d_law = [](Law small, Law large) {
    return [=](double p, double bytes) { return bytes < 257 ? small(p, bytes / 8) : large(p, bytes / 8); };
  };
  std::map<std::string, std::pair<Law, Law>> laws{
      {"allsend", {t3d_law([](double p, double d) { return 40 + 0.05 * p + 0.09 * d; },
                           [](double p, double d) { return 40 + 0.1 * p + 0.1 * d; }),
                   [](double, double b) { return 2000 + b / 4; }}},
      {"barrier", {[](double p, double) { return 10 + 8 * std::log(p); }, [](double p, double) { return 9000 * p; }}},
      {"bcast", {t3d_law([](double p, double d) { return 200 + 2 * p + 0.6 * d; },
                         [](double p, double d) { return 100 + 2 * p + 0.2 * std::log(p) * d; }),
                 [](double p, double b) { return 2000 + 700 * p * p + p * b / 4; }}},
      {"reduce", {t3d_law([](double p, double d) { return 300 + 3 * p + 2 * d; },
                          [](double p, double d) { return 300 + 2 * p + 0.6 * std::log(p) * d; }),
                  [](double p, double b) { return 20000 * std::log(p) + 6 * std::log(p) * b / 4; }}},
      {"allreduce", {t3d_law([](double p, double d) { return 300 + 6 * p + 2 * std::log(p) * d; },
                             [](double p, double d) { return 300 + 6 * p + 1 * std::log(p) * d; }),
                     [](double p, double b) { return 10000 + 500 * p * p + 2 * (b / 4) * p * p; }}},
      {"gather", {t3d_law([](double p, double d) { return 70 + 10 * p + 0.7 * d; },
                          [](double p, double d) { return 200 * std::log(p) + 0.0009 * p * p * d; }),
                  [](double p, double b) { return 30000 * std::log(p) + 4 * std::log(p) * b / 4; }}},
      {"allgather", {t3d_law([](double p, double d) { return 40 + 40 * p + 1 * d; },
                             [](double p, double d) { return 40 * p + 0.3 * p * d; }),
                     [](double p, double b) { return 8000 * p + 4 * p * p * b / 4; }}},
      {"alltoall", {t3d_law([](double p, double d) { return 40 + 50 * p + 2 * d; },
                            [](double p, double d) { return 40 * p + 0.3 * p * d; }),
                    [](double p, double b) { return 2000 + 4000 * p * p + 2 * p * p * b / 4; }}},
  };
  ASSERT_EQ(j["operations"].size(), laws.size());
  for (const auto& op : j["operations"]) {
    const auto name = op["operation"].get<std::string>();
    const auto& [t3d, now] = laws.at(name);
    const double p = name == "allsend" ? 2 : 8;
    for (const auto& point : op["points"]) {
      const double bytes = point["bytes"];
      EXPECT_EQ(point["p"], p) << name;
      EXPECT_NEAR(point["a_seconds"].get<double>(), t3d(p, bytes) * 1e-6, 1e-12) << name << " " << bytes;
      EXPECT_NEAR(point["b_seconds"].get<double>(), now(p, bytes) * 1e-6, 1e-9) << name << " " << bytes;
      EXPECT_EQ(point["faster"], t3d(p, bytes) < now(p, bytes) ? "t3d" : "now-lam") << name << " " << bytes;
    }
    EXPECT_EQ(op["points"].size(), name == "barrier" ? 1u : 2u) << name;
  }
  EXPECT_EQ(j["only_a"].size(), 13u);  // the T3D's point-to-point operations
}

TEST(DiffCli, BadInputIsNamed) {
  auto size = augur("diff t3d now-lam --sizes 8,lots");
  EXPECT_EQ(size.status, 2);
  EXPECT_NE(size.out.find("--sizes: "), std::string::npos) << size.out;
  auto machine = augur("diff t3d no-such-machine");
  EXPECT_EQ(machine.status, 1);
  EXPECT_NE(machine.out.find("no-such-machine: (document): neither a built-in machine"), std::string::npos) << machine.out;
}
