// `augur diff` on two small hand-written machines whose crossovers are worked out by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "calc/machine_diff.hpp"
#include "model/model_json.hpp"
#include "report/diff_report.hpp"

namespace {

using augur::calc::Faster;

// Times in µs, sizes in bytes.
const char* const kMachineA = R"({"augur_model": 1, "machine": {"name": "alpha"}, "provenance": {"source": "by hand"},
  "units": {"time": "us", "size": "bytes"},
  "operations": {
    "send": {"regimes": [{"from": 0, "expr": "10 + 0.1*d"}]},
    "pingpong": {"regimes": [{"from": 0, "to": 1000, "expr": "1 + 0.01*d"}, {"from": 1000, "expr": "100 + 0.01*d"}]},
    "bcast": {"regimes": [{"from": 0, "expr": "5*p + 0.01*p*d"}]},
    "barrier": {"regimes": [{"from": 0, "expr": "3*p"}]}}})";

const char* const kMachineB = R"({"augur_model": 1, "machine": {"name": "beta"}, "provenance": {"source": "by hand"},
  "units": {"time": "us", "size": "bytes"},
  "operations": {
    "send": {"regimes": [{"from": 0, "expr": "20 + 0.05*d"}]},
    "pingpong": {"regimes": [{"from": 0, "expr": "10 + 0.005*d"}]},
    "bcast": {"regimes": [{"from": 0, "expr": "50 + 0.002*p*d"}]},
    "barrier": {"regimes": [{"from": 0, "expr": "20 + p"}]},
    "allreduce": {"regimes": [{"from": 0, "expr": "1"}]}}})";

augur::calc::MachineDiff diff() {
  auto a = augur::model::parse_model(kMachineA, "a.json");
  auto b = augur::model::parse_model(kMachineB, "b.json");
  return augur::calc::diff_machines(a, b, {});
}

const augur::calc::OperationDiff& op(const augur::calc::MachineDiff& d, const std::string& name) {
  for (const auto& o : d.operations)
    if (o.op == name) return o;
  throw std::runtime_error("no " + name);
}

}  // namespace

TEST(MachineDiff, CommonOperationsInCatalogOrderAndTheRestNamed) {
  auto d = diff();
  ASSERT_EQ(d.operations.size(), 4u);
  EXPECT_EQ(d.operations[0].op, "send");
  EXPECT_EQ(d.operations[3].op, "bcast");
  EXPECT_TRUE(d.only_a.empty());
  EXPECT_EQ(d.only_b, std::vector<std::string>{"allreduce"});
}

// 10 + 0.1·d = 20 + 0.05·d at d = 200 B.
TEST(MachineDiff, PointToPointCrossesWhereTheLinesMeet) {
  const auto d = diff();
  const auto& send = op(d, "send");
  ASSERT_EQ(send.crossovers.size(), 1u);
  EXPECT_NEAR(send.crossovers[0].bytes, 200, 1e-9);
  EXPECT_EQ(send.crossovers[0].p, 2);
  EXPECT_EQ(send.crossovers[0].below, Faster::a);
  EXPECT_EQ(send.crossovers[0].above, Faster::b);
  EXPECT_FALSE(send.crossovers[0].at_break);
  ASSERT_EQ(send.points.size(), 3u);  // p = 2 only, at 8 B, 1 KiB, 64 KiB
  EXPECT_NEAR(send.points[0].ratio(), 20.4 / 10.8, 1e-12);
  EXPECT_EQ(send.points[0].faster, Faster::a);
  EXPECT_EQ(send.points[1].faster, Faster::b);
}

// 5p + 0.01·p·d = 50 + 0.002·p·d: d = (50 − 5p) / (0.008·p): 2500 B at p = 2, 156.25 B at p = 8;
// at p = 32, B is faster from the first byte.
TEST(MachineDiff, CollectiveCrossoversDependOnTheGroupSize) {
  const auto d = diff();
  const auto& bcast = op(d, "bcast");
  ASSERT_EQ(bcast.crossovers.size(), 2u);
  EXPECT_EQ(bcast.crossovers[0].p, 2);
  EXPECT_NEAR(bcast.crossovers[0].bytes, 2500, 1e-9);
  EXPECT_EQ(bcast.crossovers[1].p, 8);
  EXPECT_NEAR(bcast.crossovers[1].bytes, 156.25, 1e-9);
  EXPECT_EQ(bcast.points.size(), 9u);
  EXPECT_EQ(bcast.points.back().faster, Faster::b);
}

// A's 1 + 0.01·d stays below B's 10 + 0.005·d until its regime ends at 1000 B, where it jumps
// to 100 + 0.01·d: the faster machine changes at the break, not where lines meet.
TEST(MachineDiff, ACrossoverAtARegimeBreakIsMarked) {
  const auto d = diff();
  const auto& pingpong = op(d, "pingpong");
  ASSERT_EQ(pingpong.crossovers.size(), 1u);
  EXPECT_NEAR(pingpong.crossovers[0].bytes, 1000, 1e-9);
  EXPECT_TRUE(pingpong.crossovers[0].at_break);
}

// 3p = 20 + p at p = 10 (a tie); B is faster from p = 11.
TEST(MachineDiff, BarrierCrossesOverTheNumberOfProcesses) {
  const auto d = diff();
  const auto& barrier = op(d, "barrier");
  ASSERT_EQ(barrier.crossovers.size(), 1u);
  EXPECT_TRUE(barrier.crossovers[0].over_processes);
  EXPECT_EQ(barrier.crossovers[0].p, 11);
  EXPECT_EQ(barrier.points.size(), 3u);  // one per group size, no message
}

TEST(MachineDiff, TextAndJsonNameTheFasterMachine) {
  auto d = diff();
  auto text = augur::report::format_diff(d);
  EXPECT_NE(text.find("send                   p = 2    alpha faster below 200 B, beta from there"), std::string::npos)
      << text;
  EXPECT_NE(text.find("(a jump at a regime break)"), std::string::npos) << text;
  EXPECT_NE(text.find("Only beta models: allreduce"), std::string::npos) << text;
  auto j = augur::report::diff_to_json(d);
  EXPECT_EQ(j["operations"][0]["operation"], "send");
  EXPECT_EQ(j["operations"][0]["points"][0]["faster"], "alpha");
  EXPECT_NEAR(j["operations"][0]["crossovers"][0]["bytes"].get<double>(), 200, 1e-9);
}

TEST(MachineDiff, RatioPlotsPerGroupSizeLeaveTheBarrierOut) {
  auto a = augur::model::parse_model(kMachineA, "a.json");
  auto b = augur::model::parse_model(kMachineB, "b.json");
  auto plots = augur::report::diff_plots(a, b, augur::calc::diff_machines(a, b, {}));
  ASSERT_EQ(plots.size(), 3u);
  EXPECT_EQ(plots[1].name, "ratio-p8");
  EXPECT_EQ(plots[1].curves.size(), 3u);
  EXPECT_EQ(plots[1].y_reference, 1.0);
}
