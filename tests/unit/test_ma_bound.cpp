// The machine–application bound against seed 002's Livermore-kernel table (POWER2 thin node).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "model/error.hpp"
#include "model/machines.hpp"
#include "node/ma_bound.hpp"

namespace {

using augur::node::LoopCounts;
using augur::node::ma_bound;

struct Row {
  const char* lfk;
  double f_m, f_a, f_ma, s, l;
  double t_f, t_m, t_i, t_d, t_l, cpf;
  int mflops;
};

// The table as printed in seed 002 §4 (docs/node-model.md).
const std::vector<Row> kTable = {
    {"1", 1, 0, 2, 1, 2, 1.5, 1.5, 1.50, 0, 1.5, 0.300, 222},
    {"2", 0, 0, 2, 1, 2, 1.0, 1.5, 1.25, 0, 1.5, 0.375, 178},
    {"3, 4, 6", 0, 0, 1, 0, 2, 0.5, 1.0, 0.75, 0, 1.0, 0.500, 133},
    {"5", 1, 1, 0, 1, 2, 1.0, 1.5, 1.25, 3, 1.5, 0.750, 89},
    {"7", 0, 0, 8, 1, 3, 4.0, 2.0, 3.00, 0, 4.0, 0.250, 267},
    {"8", 0, 6, 15, 6, 9, 10.5, 7.5, 9.00, 0, 10.5, 0.292, 228},
    {"9", 1, 2, 7, 1, 10, 5.0, 5.5, 5.25, 0, 5.5, 0.324, 206},
    {"10", 0, 9, 0, 10, 10, 4.5, 10.0, 7.25, 0, 10.0, 1.111, 60},
    {"11", 0, 1, 0, 1, 1, 0.5, 1.0, 0.75, 1, 1.0, 1.000, 67},
    {"12", 0, 1, 0, 1, 1, 0.5, 1.0, 0.75, 0, 1.0, 1.000, 67},
};

LoopCounts counts(const Row& r) {
  LoopCounts c;
  c.f_m = r.f_m;
  c.f_a = r.f_a;
  c.f_ma = r.f_ma;
  c.s = r.s;
  c.l = r.l;
  c.t_d = r.t_d;
  return c;
}

double round_to(double x, double places) { return std::round(x * std::pow(10, places)) / std::pow(10, places); }

// The table's rule for LFK5: t_l leaves t_d out. Every other row has t_d <= t_l, so the rule
// changes nothing there.
bool table_includes_t_d(const Row& r) { return std::string(r.lfk) != "5"; }

}  // namespace

TEST(MaBound, ReproducesEveryTermOfTheLivermoreTable) {
  const auto node = *augur::node::builtin_node("power2-thin");
  for (const auto& r : kTable) {
    SCOPED_TRACE(std::string("LFK ") + r.lfk);
    const auto b = ma_bound(counts(r), node, table_includes_t_d(r));
    EXPECT_DOUBLE_EQ(b.t_f_arith, r.t_f);
    EXPECT_DOUBLE_EQ(b.t_m, r.t_m);
    EXPECT_DOUBLE_EQ(b.t_i, r.t_i);
    EXPECT_DOUBLE_EQ(b.t_d, r.t_d);
    EXPECT_DOUBLE_EQ(b.t_l, r.t_l);
    EXPECT_DOUBLE_EQ(round_to(b.cpf, 3), r.cpf);
  }
}

// The table's MFLOPS are 66.7 / CPF with CPF as printed, to 3 decimals: LFK8's exact bound is
// 228.7 MFLOPS (10.5 cycles for 36 flops) and the table prints 228 from CPF 0.292. Every other
// row rounds the same either way.
TEST(MaBound, ReproducesTheTablesMflops) {
  const auto node = *augur::node::builtin_node("power2-thin");
  for (const auto& r : kTable) {
    SCOPED_TRACE(std::string("LFK ") + r.lfk);
    const auto b = ma_bound(counts(r), node, table_includes_t_d(r));
    EXPECT_EQ(std::lround(node.clock_hz / 1e6 / round_to(b.cpf, 3)), r.mflops);
    if (std::string(r.lfk) != "8") {
      EXPECT_EQ(std::lround(b.mflops), r.mflops);
    }
  }
  const auto lfk8 = ma_bound(counts(kTable[5]), node);
  EXPECT_NEAR(lfk8.mflops, 228.69, 0.01);
}

TEST(MaBound, Lfk5WithItsDependencePathGivesTheFormulas44Mflops) {
  const auto node = *augur::node::builtin_node("power2-thin");
  const auto b = ma_bound(counts(kTable[3]), node);
  EXPECT_DOUBLE_EQ(b.t_l, 3.0);
  EXPECT_EQ(b.limit, "t_d");
  EXPECT_DOUBLE_EQ(b.cpf, 1.5);
  EXPECT_EQ(std::lround(b.mflops), 44);  // 44.47
}

TEST(MaBound, FullTfCountsLoadsDivisionsAndRoots) {
  const auto node = *augur::node::builtin_node("power2-thin");
  LoopCounts c;
  c.f_a = 9, c.l = 10, c.s = 10;  // LFK10: t_f is 5 with the loads, 4.5 without
  EXPECT_DOUBLE_EQ(ma_bound(c, node).t_f, 5.0);
  LoopCounts d;
  d.f_div = 1, d.f_sqrt = 1, d.l = 1;
  const auto b = ma_bound(d, node);
  EXPECT_DOUBLE_EQ(b.t_f, (17 + 27) / 2.0);
  EXPECT_DOUBLE_EQ(b.flops, 8);
  EXPECT_DOUBLE_EQ(b.t_fx, 0.5);
  EXPECT_DOUBLE_EQ(b.seconds, 22 / 66.7e6);
}

TEST(MaBound, MissesRaiseTheMemoryTerm) {
  const auto node = *augur::node::builtin_node("power2-thin");
  LoopCounts c;
  c.l = 2, c.s = 1, c.m_l = 0.125, c.m_s = 0.125;
  const auto b = ma_bound(c, node);
  // Serial misses: 2·0.125·16.3 + 0.125·22 = 6.825; effective latencies: (2·2.9125 + 3.625)/2 = 4.725.
  EXPECT_NEAR(b.t_m, 6.825, 1e-12);
  EXPECT_EQ(b.limit, "t_m");
}

TEST(MaBound, CapacityMissesRampBetweenFittingAndThrashing) {
  using augur::node::capacity_misses;
  EXPECT_EQ(capacity_misses(1000, 1024, 4, 2), 0);
  EXPECT_EQ(capacity_misses(2000, 1024, 4, 2), 2000);  // beyond C(1 + D/A) = 1536
  EXPECT_DOUBLE_EQ(capacity_misses(1280, 1024, 4, 2), 1280.0 * 256 / 512);
  EXPECT_DOUBLE_EQ(capacity_misses(1536, 1024, 4, 2), 1536);  // continuous at the upper end
  EXPECT_DOUBLE_EQ(capacity_misses(1280, 1024, 4, 9), capacity_misses(1280, 1024, 4, 4));  // D clamped to A
  const auto node = *augur::node::builtin_node("power2-thin");
  EXPECT_DOUBLE_EQ(augur::node::capacity_miss_rate(node, 1 << 20, 2), 1.0 / 8);  // every line missed, 8 doubles a line
}

TEST(MaBound, NodeOfAMachine) {
  EXPECT_EQ(augur::node::node_for(augur::model::load_machine("sp2-mpl")).name, "power2-thin");
  try {
    augur::node::node_for(augur::model::load_machine("t3d"));
    FAIL() << "t3d has no flop rate";
  } catch (const augur::model::QueryError& e) {
    EXPECT_NE(std::string(e.what()).find("compute.flops"), std::string::npos) << e.what();
  }
  auto m = augur::model::load_machine("t3d");
  m.compute.flops = 600e6;
  m.compute.memory_bandwidth = 6.4e8;
  const auto n = augur::node::node_for(m);
  EXPECT_DOUBLE_EQ(n.clock_hz, 150e6);
  EXPECT_DOUBLE_EQ(n.load_miss_cycles, 64 / 6.4e8 * 150e6);
}
