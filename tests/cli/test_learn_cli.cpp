// `augur learn`: a program simulated at p = 2, 4, 8 and 16 (its traces written by `augur sim`),
// learned, and simulated again at p = 64 from what was learned, against the same program written
// for p = 64; and what cannot be learned refused, with nothing written.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "augur_runner.hpp"

using augur_test::augur;
using augur_test::read_text;
using augur_test::temp_file;

namespace {

// A ring: each rank computes 64 ms / p, passes 8 KiB on, and the ranks sum 64 bytes at the end.
std::string ring(int p) {
  return fmt::format(
      "ranks {}\nranks 0..N-1 {{\n  repeat 10 {{\n    compute {}us\n    sendrecv rank+1 rank-1 8KiB\n  }}\n"
      "  allreduce 64\n}}\n",
      p, 64000 / p);
}

double simulated(const std::string& args) {
  const auto r = augur("sim --machine t3d --json --no-progress " + args);
  EXPECT_EQ(r.status, 0) << r.out;
  return r.status == 0 ? nlohmann::json::parse(r.out).at("predicted_seconds").get<double>() : -1;
}

// Traces of `program` at p = 2, 4, 8, 16, as shell words for augur learn.
std::string traces_of(const std::string& name, const std::function<std::string(int)>& program) {
  std::string words;
  for (const int p : {2, 4, 8, 16}) {
    const auto dir = testing::TempDir() + fmt::format("learn-{}-{}", name, p);
    std::filesystem::remove_all(dir);
    const auto file = temp_file(fmt::format("learn-{}-{}.sched", name, p), program(p));
    EXPECT_GE(simulated(file + " --trace " + dir), 0);
    words += " " + dir;
  }
  return words;
}

const nlohmann::json& body_of(const nlohmann::json& app) { return app.at("program").at("groups").at(0).at("body"); }

}  // namespace

TEST(LearnCli, LearnsARingsLawsAndPredictsItAtSixtyFourRanks) {
  const auto out = testing::TempDir() + "learn-ring.json";
  std::filesystem::remove(out);
  const auto r = augur("learn" + traces_of("ring", ring) + " -o " + out);
  ASSERT_EQ(r.status, 0) << r.out;
  const auto app = nlohmann::json::parse(read_text(out));
  ASSERT_EQ(app.at("program").at("groups").size(), 1u);
  const auto& loop = body_of(app).at(0);
  EXPECT_EQ(loop.at("repeat").dump(), "\"10\"");
  const auto& compute = loop.at("body").at(0).at("compute");  // seconds · p, fitted to rounding
  EXPECT_NEAR(compute.is_string() ? std::stod(compute.get<std::string>()) : compute.at("coefficients").at(0).get<double>(),
              0.064, 1e-12);
  const auto& exchange = loop.at("body").at(1);
  EXPECT_EQ(exchange.at("op"), "sendrecv");
  EXPECT_EQ(body_of(app).at(1).at("op"), "allreduce");
  // What was learned runs at a count never traced to the time of the program written for it.
  const double learned = simulated("--app " + out + " --ranks 64");
  const double written = simulated(temp_file("learn-ring-64.sched", ring(64)));
  EXPECT_NEAR(learned, written, 1e-9 * written);
}

TEST(LearnCli, PeersThatFollowNoRuleAreRefusedAndNothingIsWritten) {
  // Each rank sends to a partner picked by a table that is a different shuffle at each count.
  const auto shuffled = [](int p) {
    std::vector<int> perm(p);
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), std::mt19937(42 + p));
    std::string table;
    for (int i = 0; i < p; ++i) table += fmt::format("{}{}", i ? ", " : "", perm[i]);
    return fmt::format("ranks {}\ntable to = {{{}}}\nranks 0..N-1 {{\n  isend to[rank] 1KiB\n  recv any\n  wait\n}}\n", p,
                       table);
  };
  const auto out = testing::TempDir() + "learn-shuffle.json";
  std::filesystem::remove(out);
  const auto r = augur("learn" + traces_of("shuffle", shuffled) + " -o " + out);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("MPI_Isend"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("follows no rule"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("at p = 8"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(out));
}

TEST(LearnCli, PhasesThatDifferBetweenCountsAreRefused) {
  const auto program = [](int p) {
    return fmt::format("ranks {}\nranks 0..N-1 {{\n  {}\n}}\n", p, p < 8 ? "allreduce 64" : "bcast 64 root=0");
  };
  const auto r = augur("learn" + traces_of("differ", program) + " -o " + testing::TempDir() +
                       "learn-differ.json");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("differ between process counts"), std::string::npos) << r.out;
}

TEST(LearnCli, OneProcessCountIsAUsageError) {
  const auto dir = testing::TempDir() + "learn-one";
  std::filesystem::remove_all(dir);
  ASSERT_GE(simulated(temp_file("learn-one.sched", ring(4)) + " --trace " + dir), 0);
  const auto r = augur("learn " + dir + " " + dir + " -o " + testing::TempDir() + "learn-one.json");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("two or more process counts"), std::string::npos) << r.out;
}

TEST(LearnCli, RecoversTheSeedsMandelModelFormsInPAndN) {
  // Seed 000's mandel: t = d·(d/p)·c computing rows, then the image gathered at rank 0.
  std::string words, params;
  for (const int n : {64, 128, 256})
    for (const int p : {2, 4, 8, 16}) {
      const auto program = fmt::format("ranks {}\nranks 0..N-1 {{\n  compute {}ns\n  gather {} root=0\n}}\n", p,
                                       n * n / p * 50, n * n / p * 4);
      const auto dir = testing::TempDir() + fmt::format("learn-mandel-{}-{}", n, p);
      std::filesystem::remove_all(dir);
      ASSERT_GE(simulated(temp_file(fmt::format("learn-mandel-{}-{}.sched", n, p), program) + " --trace " + dir), 0);
      words += " " + dir;
      params += fmt::format(" --param n={}", n);
    }
  const auto out = testing::TempDir() + "learn-mandel.json";
  const auto r = augur("learn" + words + params + " -o " + out);
  ASSERT_EQ(r.status, 0) << r.out;
  const auto app = nlohmann::json::parse(read_text(out));
  // Exact data give an exact law, written as its expression: a·n²/p with a = 50 ns.
  const auto compute = body_of(app).at(0).at("compute").get<std::string>();
  const auto times = compute.find("*n^2/p");
  ASSERT_NE(times, std::string::npos) << compute;
  EXPECT_EQ(times + 6, compute.size()) << compute;
  EXPECT_NEAR(std::stod(compute.substr(0, times)), 50e-9, 1e-15);
  EXPECT_EQ(body_of(app).at(1).at("bytes").get<std::string>(), "4*n^2/p");
  EXPECT_EQ(app.at("parameters").at("n").at("values").size(), 3u);
  // And the learned model plots like a hand-written one.
  const auto plot = augur("plot " + out + " --machine t3d --no-draw -o " + testing::TempDir() + "learn-mandel-plot");
  EXPECT_EQ(plot.status, 0) << plot.out;
}
