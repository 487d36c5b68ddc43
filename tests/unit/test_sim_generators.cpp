// Generated collectives on the LogGOPS network derived from seed 002's SP2 model: the seed's
// broadcast rankings (sp2-models.md §2) must come out of the simulation of the algorithms;
// and allreduce algorithms timed by hand on a toy LogGOPS.
#include <gtest/gtest.h>

#include "model/machines.hpp"
#include "sim/kernel/kernel.hpp"
#include "sim/network/loggops.hpp"
#include "sim/program/generators.hpp"

// The file's own names, apart from other test files' when a unity build (AUGUR_UNITY) joins them.
namespace test_sim_generators {
namespace {

using namespace augur;
using namespace augur::sim;

namespace {

struct SimSp2Broadcasts : ::testing::Test {
  model::Model model = model::load_machine("sp2-mpl");
  LogGOPSNetwork net{model, model::Bound::avg};

  double bcast(const std::string& algorithm, int p, const std::string& bytes) {
    auto g = generate("bcast", {"algorithm=" + algorithm, "p=" + std::to_string(p), "bytes=" + bytes});
    Options options;
    options.algorithms = g.algorithms;
    return simulate(*g.program, net, options).predicted;
  }
};

constexpr double us = 1e-6;

}  // namespace

TEST_F(SimSp2Broadcasts, LogGOPSIsDerivedFromTheModel) {
  // At 16 B: T = 47 + 16/23.5, o = onetomany(1) = −5.5 + 15.5 + 0.031·16, g = 15.5 + 0.031·16.
  EXPECT_NEAR(net.one_way(16), (47 + 16 / 23.5) * us, 1e-12);
  EXPECT_NEAR(net.overhead(16), (10 + 0.031 * 16) * us, 1e-12);
  EXPECT_NEAR(net.gap(16), (15.5 + 0.031 * 16) * us, 1e-12);
}

TEST_F(SimSp2Broadcasts, OneToManyMatchesTheSeedModel) {
  // 1m = T_1m(n, p − 2) + T_pp(n): 186 µs at p = 11 and 202 µs at p = 12 (sp2-models.md §2).
  EXPECT_NEAR(bcast("1m", 11, "16"), (-5.5 + 9 * (15.5 + 0.031 * 16) + 47 + 16 / 23.5) * us, 1e-12);
  EXPECT_NEAR(bcast("rd", 12, "16"), 4 * (47 + 16 / 23.5) * us, 1e-12);
}

TEST_F(SimSp2Broadcasts, At16BytesOneToManyBeatsRecursiveDoublingUpToElevenRanks) {
  EXPECT_LE(bcast("1m", 2, "16"), bcast("rd", 2, "16"));  // one message either way
  for (int p = 3; p <= 11; ++p) EXPECT_LT(bcast("1m", p, "16"), bcast("rd", p, "16")) << "p = " << p;
  for (int p = 12; p <= 32; ++p) EXPECT_GT(bcast("1m", p, "16"), bcast("rd", p, "16")) << "p = " << p;
}

TEST_F(SimSp2Broadcasts, At8KiBOneToManyIsLastAndRecursiveDoublingBeatsTheBinaryTree) {
  for (int p : {8, 12, 16, 24, 32}) {
    const double one = bcast("1m", p, "8KiB"), rd = bcast("rd", p, "8KiB"), bt = bcast("bt", p, "8KiB");
    EXPECT_GT(one, rd) << "p = " << p;
    EXPECT_GT(one, bt) << "p = " << p;
    EXPECT_LT(rd, bt) << "p = " << p;
  }
}

TEST(SimGenerators, EveryAlgorithmCompletesOnAwkwardSizes) {
  LogGOPSNetwork net(parse_loggops("L=2us,o=1us,g=1us,G=1ns"));
  for (const auto& a : algorithm_catalog())
    for (int p : {1, 2, 3, 5, 8, 13}) {
      auto g = generate(a.collective, {"algorithm=" + std::string(a.name), "p=" + std::to_string(p), "bytes=20000",
                                       "root=" + std::to_string(p / 2), "iterations=2"});
      Options options;
      options.algorithms = g.algorithms;
      auto r = simulate(*g.program, net, options);
      EXPECT_TRUE(r.warnings.empty()) << a.collective << " " << a.name << " p=" << p;
      EXPECT_EQ(r.operations.at(std::string(a.collective)).count, 2 * p);
    }
}

namespace {

// A toy LogGOPS: o = 1 µs, L = 10 µs, G = 1 ns/B, so a lock-step exchange of n bytes takes
// T(n) = 2o + L + (n − 1)·G: the first byte is o + L on its way, the rest G each at the receiver.
double allreduce(const std::string& algorithm, int p, double bytes, Result* out = nullptr) {
  LogGOPSNetwork net(parse_loggops("L=10us,o=1us,g=1us,G=1ns"));
  auto g = generate("allreduce", {"algorithm=" + algorithm, "p=" + std::to_string(p), "bytes=" + std::to_string(bytes)});
  Options options;
  options.algorithms = g.algorithms;
  auto r = simulate(*g.program, net, options);
  if (out) *out = r;
  return r.predicted;
}

}  // namespace

TEST(SimGenerators, RabenseifnerHalvesThenDoubles) {
  // p = 4: exchanges of n/2 and n/4 (reduce-scatter), then n/4 and n/2 (allgather).
  Result r;
  const double n = 4096, step = 2 * us + 10 * us, G = 1e-9;
  EXPECT_NEAR(allreduce("rabenseifner", 4, n, &r), 4 * step + (n / 2 - 1 + n / 4 - 1 + n / 4 - 1 + n / 2 - 1) * G, 1e-12);
  EXPECT_EQ(r.messages, 16u);  // 4 exchanges of each rank
  EXPECT_NEAR(r.operations.at("allreduce").bytes, 4 * n, 1e-9);
  EXPECT_NEAR(allreduce("rd", 4, n), 2 * (step + (n - 1) * G), 1e-12);
}

TEST(SimGenerators, RabenseifnerFoldsInRanksBeyondAPowerOfTwo) {
  // p = 6: ranks 0 and 2 hand their data to 1 and 3 and get the result back (4 messages), the
  // other four run the p = 4 algorithm (16 messages).
  Result r;
  const double n = 4096;
  allreduce("rabenseifner", 6, n, &r);
  EXPECT_EQ(r.messages, 20u);
  EXPECT_TRUE(r.warnings.empty());
  // Rank 0's data reaches rank 1 one message time T(n) in, and the result, sent back after rank
  // 1's exchanges, takes another T(n).
  const double whole = 12 * us + n * 1e-9;
  EXPECT_GT(r.ranks[0].finish, 2 * whole + 4 * us);
}

TEST(SimGenerators, RabenseifnerBeatsRecursiveDoublingOnLargeVectorsOnly) {
  for (int p : {8, 16, 13}) {
    EXPECT_GT(allreduce("rabenseifner", p, 8), allreduce("rd", p, 8)) << "p = " << p;
    EXPECT_LT(allreduce("rabenseifner", p, 1 << 20), allreduce("rd", p, 1 << 20)) << "p = " << p;
  }
}

TEST(SimGenerators, BadParametersAreNamed) {
  EXPECT_THROW(generate("bcast", {"p=0"}), std::invalid_argument);
  EXPECT_THROW(generate("bcast", {"p=4", "algorithm=zz"}), std::invalid_argument);
  EXPECT_THROW(generate("bcast", {"p=4", "colour=red"}), std::invalid_argument);
  EXPECT_THROW(generate("teleport", {"p=4"}), std::invalid_argument);
}

}  // namespace
}  // namespace test_sim_generators
