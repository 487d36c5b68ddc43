// The budget planner of `augur bench` (bench/budget.hpp), what the model records of what a budget
// left out (model/budget_record.hpp), and the notes the predictors make of it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "bench/budget.hpp"
#include "bench/settings.hpp"
#include "calc/calculator.hpp"
#include "model/budget_record.hpp"
#include "model/model_json.hpp"
#include "revprof/ledger.hpp"
#include "revprof/report.hpp"

namespace {

using namespace augur;

// The quick preset on `world` processes, every operation, with a 3-minute budget.
bench::BudgetRequest quick_request(int world = 2, double budget = 180) {
  const auto preset = bench::preset_settings("quick");
  bench::BudgetRequest r;
  r.budget_seconds = budget;
  r.spent_seconds = 1;
  r.operations = bench::selected_operations(preset);
  r.groups = bench::group_sizes(world);
  r.max_bytes = preset.max_bytes;
  r.passes = bench::preset_passes("quick");
  r.warmup = preset.warmup;
  r.min_reps = preset.min_reps;
  r.max_reps = preset.max_reps;
  r.kernel_seconds = 2;
  return r;
}

// Shared memory as on this machine: 0.2 µs one way, 10 GB/s, half a second a launch.
const bench::Calibration kSharedMemory{0.2e-6, 10e9, 0.5, {}};
// Open MPI over a 1 Gbit/s TCP loopback: 20 µs, 125 MB/s, a second a launch.
const bench::Calibration kGigabit{20e-6, 125e6, 1.0, {}};

// The whole run's estimate, recomputed from the plan's own choices, independently of the planner's
// bookkeeping.
double recomputed_estimate(const bench::Calibration& c, const bench::BudgetRequest& r, const bench::BudgetPlan& plan) {
  const auto points = bench::base_plan(r.operations, plan.groups, plan.max_bytes);
  // Each pass gives a point the preset's share of repetitions, however many passes there are.
  const double pass = bench::pass_seconds(c, points, plan.warmup, bench::reps_per_pass(r.min_reps, r.passes));
  return plan.fixed_seconds + plan.passes * pass;
}

TEST(BenchBudget, AFastNetworkKeepsTheWholeSweep) {
  const auto r = quick_request(2);
  const auto plan = bench::plan_budget(kSharedMemory, r);
  EXPECT_TRUE(plan.fits);
  EXPECT_EQ(plan.passes, r.passes);
  EXPECT_EQ(plan.max_bytes, r.max_bytes);
  EXPECT_EQ(plan.groups, r.groups);
  EXPECT_EQ(plan.warmup, r.warmup);
  EXPECT_LE(plan.estimate_seconds, r.budget_seconds);
  EXPECT_NEAR(plan.estimate_seconds, recomputed_estimate(kSharedMemory, r, plan), 1e-9);
  const auto record = bench::left_out_record(plan, r, plan.passes);
  EXPECT_TRUE(record.at("groups_left_out").empty());
}

TEST(BenchBudget, ASlowNetworkFitsTheBudgetByGivingUpPassesFirst) {
  const auto r = quick_request();
  const auto plan = bench::plan_budget(kGigabit, r);
  EXPECT_TRUE(plan.fits);
  EXPECT_LE(plan.estimate_seconds, r.budget_seconds);
  EXPECT_NEAR(plan.estimate_seconds, recomputed_estimate(kGigabit, r, plan), 1e-9);
  // The passes go first; sizes only once the passes are down to five.
  EXPECT_LT(plan.passes, r.passes);
  if (plan.max_bytes < r.max_bytes) {
    EXPECT_EQ(plan.passes, 5);
  }
  // What was given up had to be: the plan with the last thing given back would not have fitted the
  // share of the budget that the fewest repetitions may take (60% of 92% of what the fixed part
  // leaves, budget.cpp).
  auto given_back = plan;
  if (plan.max_bytes < r.max_bytes) given_back.max_bytes *= 2;
  else given_back.passes += 1;
  EXPECT_GT(recomputed_estimate(kGigabit, r, given_back) - plan.fixed_seconds,
            0.6 * 0.92 * (r.budget_seconds - plan.fixed_seconds));
}

// Over networks ever slower, what the plan keeps shrinks in the documented order: passes to 5,
// then the largest messages to 64 KiB, then the largest groups, then the passes to 1, then the
// messages to 4 KiB, then the warm-up.
TEST(BenchBudget, ASlowerNetworkGivesThingsUpInTheDocumentedOrder) {
  const auto r = quick_request(8);
  int previous_passes = r.passes;
  std::uint64_t previous_bytes = r.max_bytes;
  std::size_t previous_groups = r.groups.size();
  bool cut_sizes = false, cut_groups = false, cut_passes_below_five = false;
  for (double bandwidth = 10e9; bandwidth > 1e3; bandwidth /= 1.5) {
    const bench::Calibration c{20e-6, bandwidth, 1.0, {}};
    const auto plan = bench::plan_budget(c, r);
    SCOPED_TRACE("bandwidth " + std::to_string(bandwidth));
    if (plan.fits) {
      EXPECT_LE(plan.estimate_seconds, r.budget_seconds);
    }
    // Monotone: a slower network never gets more.
    EXPECT_LE(plan.passes, previous_passes);
    EXPECT_LE(plan.max_bytes, previous_bytes);
    EXPECT_LE(plan.groups.size(), previous_groups);
    if (plan.max_bytes < r.max_bytes) {
      EXPECT_LE(plan.passes, 5);
    }
    if (plan.groups.size() < r.groups.size()) {
      EXPECT_LE(plan.max_bytes, 64u * 1024);
    }
    if (plan.passes < 5) {
      EXPECT_EQ(plan.groups, std::vector<int>{2});
    }
    if (plan.max_bytes < 64u * 1024) {
      EXPECT_EQ(plan.passes, 1);
    }
    if (plan.warmup < r.warmup) {
      EXPECT_EQ(plan.max_bytes, 4u * 1024);
    }
    EXPECT_FALSE(plan.groups.empty());
    EXPECT_EQ(plan.groups.front(), 2);
    cut_sizes |= plan.max_bytes < r.max_bytes;
    cut_groups |= plan.groups.size() < r.groups.size();
    cut_passes_below_five |= plan.passes < 5;
    previous_passes = plan.passes;
    previous_bytes = plan.max_bytes;
    previous_groups = plan.groups.size();
  }
  // The sweep of networks reached every step.
  EXPECT_TRUE(cut_sizes);
  EXPECT_TRUE(cut_groups);
  EXPECT_TRUE(cut_passes_below_five);
}

// On several nodes the groups spanning them are kept until the passes are down to one: at a
// network speed where one node's run of 8 ranks gives up its largest groups with passes left,
// the same ranks on 2 nodes of 4 keep them, and give up passes instead.
TEST(BenchBudget, OnSeveralNodesThePassesGoBeforeTheGroups) {
  auto r = quick_request(8);
  bool seen = false;
  for (double bandwidth = 10e9; bandwidth > 1e3 && !seen; bandwidth /= 1.5) {
    const bench::Calibration c{20e-6, bandwidth, 1.0, {}};
    r.machine = {};
    const auto one_node = bench::plan_budget(c, r);
    if (!(one_node.groups.size() < r.groups.size() && one_node.passes > 1)) continue;
    seen = true;
    r.machine = {2, 4};
    const auto two_nodes = bench::plan_budget(c, r);
    SCOPED_TRACE("bandwidth " + std::to_string(bandwidth));
    EXPECT_LT(two_nodes.passes, one_node.passes);
    EXPECT_EQ(two_nodes.groups, r.groups);
    EXPECT_LE(two_nodes.estimate_seconds, r.budget_seconds);
  }
  EXPECT_TRUE(seen) << "no network made one node's run give up groups with passes left";
}

TEST(BenchBudget, ABudgetTooSmallForAnythingSaysSo) {
  const auto r = quick_request(4, 8);
  const auto plan = bench::plan_budget(kGigabit, r);
  EXPECT_FALSE(plan.fits);
  EXPECT_EQ(plan.passes, 1);
  EXPECT_EQ(plan.max_bytes, 4u * 1024);
  EXPECT_EQ(plan.groups, std::vector<int>{2});
  EXPECT_EQ(plan.warmup, 1);
  const auto lines = bench::describe_plan(plan, r, kGigabit);
  EXPECT_NE(lines.back().find("cannot hold"), std::string::npos) << lines.back();
}

TEST(BenchBudget, LargerMessagesAndSlowerNetworksCostMore) {
  const bench::Point small{bench::operation_index("send"), 2, 1024}, large{bench::operation_index("send"), 2, 1 << 20};
  EXPECT_LT(bench::point_seconds(kGigabit, small, 3, 5), bench::point_seconds(kGigabit, large, 3, 5));
  EXPECT_LT(bench::point_seconds(kSharedMemory, large, 3, 5), bench::point_seconds(kGigabit, large, 3, 5));
  // A MiB at 125 MB/s is 8.4 ms a message; 3 warm-up and 5 timed repetitions a window apart
  // take at least 13 of them.
  EXPECT_GT(bench::point_seconds(kGigabit, large, 3, 5), 13 * (1 << 20) / 125e6);
  // An alltoall on 8 processes sends 7 messages in a row where one on 2 sends one.
  const int alltoall = bench::operation_index("alltoall");
  EXPECT_GT(bench::point_seconds(kGigabit, {alltoall, 8, 1 << 20}, 3, 5),
            5 * bench::point_seconds(kGigabit, {alltoall, 2, 1 << 20}, 3, 5));
}

// A pair exchange's repetition is an untimed call and 16 in a row up to 64 KiB, one above: what
// it costs beyond a send's single message, repetition by repetition.
TEST(BenchBudget, APairExchangeCostsItsUntimedCallAndItsLoop) {
  const int send = bench::operation_index("send");
  for (const char* name : {"sendrecv", "exchange"}) {
    const int op = bench::operation_index(name);
    for (const auto& [bytes, extra_messages] : {std::pair{65536, 16}, std::pair{1 << 20, 1}}) {
      const double message = bench::message_seconds(kGigabit, bytes);
      const double extra = bench::point_seconds(kGigabit, {op, 2, std::uint64_t(bytes)}, 3, 5) -
                           bench::point_seconds(kGigabit, {send, 2, std::uint64_t(bytes)}, 3, 5);
      // 3 warm-up repetitions and 5 timed ones, each timed one a window of two repetitions.
      EXPECT_NEAR(extra, (3 + 2 * 5) * extra_messages * message, 1e-12) << name << " at " << bytes;
    }
  }
}

// Over TCP through a token bucket a 128 KiB message took 100 ms, a hundred times what the link's
// bandwidth says: the measured times count where they exceed latency + bytes / bandwidth.
TEST(BenchBudget, ALinkThatStallsCostsWhatItMeasured) {
  auto stalling = kGigabit;
  stalling.messages = {{16384, 200e-6}, {131072, 0.1}, {1048576, 0.12}};
  const double linear = 20e-6 + 65536 / 125e6;
  EXPECT_DOUBLE_EQ(bench::message_seconds(kGigabit, 65536), linear);
  EXPECT_NEAR(bench::message_seconds(stalling, 65536), 200e-6 + (65536.0 - 16384) / (131072 - 16384) * (0.1 - 200e-6), 1e-12);
  EXPECT_DOUBLE_EQ(bench::message_seconds(stalling, 1024), 20e-6 + 1024 / 125e6);  // below the measured: linear
  EXPECT_DOUBLE_EQ(bench::message_seconds(stalling, 2097152), 0.24);               // beyond: in proportion
  // The stalls make the sweep's large messages too dear: the plan gives up sizes on a link whose
  // bandwidth alone would have kept them.
  const auto r = quick_request();
  const auto smooth = bench::plan_budget(kGigabit, r), stalled = bench::plan_budget(stalling, r);
  EXPECT_LT(stalled.max_bytes, smooth.max_bytes);
  EXPECT_LE(stalled.estimate_seconds, r.budget_seconds);
}

TEST(BenchBudget, PassesThatFitCountWhatIsLeft) {
  EXPECT_EQ(bench::passes_that_fit(25, 25, 3, 5.0, 20.0), 7);
  EXPECT_EQ(bench::passes_that_fit(25, 25, 3, 5.0, 1000.0), 25);  // never more than the preset's
  EXPECT_EQ(bench::passes_that_fit(25, 25, 3, 5.0, -4.0), 3);     // over time: stop
  EXPECT_EQ(bench::passes_that_fit(25, 25, 3, 0.0, 10.0), 25);    // no pass timed yet
}

TEST(BenchBudget, TimeThePlanDidNotNeedBuysPassesWithAMargin) {
  // Five planned, three made at 16 s each: 80 s left hold the two planned ones, so the count is
  // what they hold at 20 s a pass (16 s and a quarter to spare): 3 + 4.
  EXPECT_EQ(bench::passes_that_fit(5, 25, 3, 16.0, 80.0), 7);
  EXPECT_EQ(bench::passes_that_fit(5, 25, 5, 16.0, 80.0), 9);
  EXPECT_EQ(bench::passes_that_fit(5, 25, 5, 16.0, 19.9), 5);  // one pass without its margin: none
  EXPECT_EQ(bench::passes_that_fit(5, 25, 5, 16.0, 20.0), 6);
  EXPECT_EQ(bench::passes_that_fit(5, 7, 5, 16.0, 1000.0), 7);  // the preset's count bounds them
  // The planned passes themselves need no margin: 32 s hold both that are left.
  EXPECT_EQ(bench::passes_that_fit(5, 25, 3, 16.0, 32.0), 5);
  // A count that shrank for lack of time grows back, to the plan, when a pass went faster.
  EXPECT_EQ(bench::passes_that_fit(5, 25, 3, 8.0, 16.0), 5);
}

// A model as `augur bench` writes it, with the budget's record in its provenance.
model::Model budgeted_model() {
  auto r = quick_request(8);
  bench::BudgetPlan plan;
  plan.passes = 5;
  plan.max_bytes = 64 * 1024;
  plan.groups = {2, 3, 4};
  plan.warmup = r.warmup;
  auto m = model::parse_model(R"({"augur_model": 1, "machine": {"name": "slow"}, "provenance": {"source": "augur bench"},
      "units": {"time": "us", "size": "bytes"}, "operations": {
      "pingpong": {"regimes": [{"from": 0, "expr": "20 + d/125"}], "measured": {"max_bytes": 65536, "max_processes": 2}}}})",
                              "budgeted");
  m.provenance.settings["budget"] = bench::left_out_record(plan, r, 4);
  m.provenance.settings["budget"]["planned_points"] = 900;
  m.provenance.settings["budget"]["first_pass_points"] = 585;
  return m;
}

TEST(BenchBudget, TheModelKeepsWhatTheBudgetLeftOut) {
  const auto path = std::filesystem::temp_directory_path() / "augur_budget_record.json";
  model::save_model_file(budgeted_model(), path);
  const auto loaded = model::load_model_file(path);
  std::filesystem::remove(path);
  const auto record = model::BudgetRecord::from_settings(loaded.provenance.settings);
  ASSERT_TRUE(record);
  EXPECT_DOUBLE_EQ(record->budget_seconds, 180);
  EXPECT_DOUBLE_EQ(record->max_bytes, 65536);
  EXPECT_DOUBLE_EQ(record->preset_max_bytes, 1 << 20);
  EXPECT_EQ(record->groups_left_out, (std::vector<int>{6, 8}));
  EXPECT_EQ(record->passes_made, 4);
  EXPECT_EQ(record->preset_passes, 25);
  EXPECT_EQ(record->planned_points, 900);
  EXPECT_EQ(record->measured_points, 585);
  EXPECT_EQ(record->note(),
            "the 3m00s budget of augur bench left out messages above 64 KiB (its sweep goes to 1 MiB), groups of 6, 8 "
            "processes, 315 of the sweep's 900 points and 21 of 25 passes");
  // No record, no note; a malformed one is an error that names the field.
  EXPECT_FALSE(model::BudgetRecord::from_settings(nlohmann::json::object()));
  auto broken = loaded.provenance.settings;
  broken["budget"]["planned"]["max_bytes"] = "big";
  try {
    model::BudgetRecord::from_settings(broken);
    ADD_FAILURE() << "a malformed record was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("provenance.settings.budget.planned.max_bytes"), std::string::npos) << e.what();
  }
}

TEST(BenchBudget, CalcSaysTheBudgetLeftOutWhatItExtrapolatesTo) {
  auto m = budgeted_model();
  const auto beyond = calc::format_answer(m, calc::ask(m, {"pingpong", 2, 1 << 20}));
  EXPECT_NE(beyond.find("Extrapolated"), std::string::npos) << beyond;
  EXPECT_NE(beyond.find("Measured within a budget: the 3m00s budget of augur bench left out messages above 64 KiB"),
            std::string::npos)
      << beyond;
  const auto within = calc::format_answer(m, calc::ask(m, {"pingpong", 2, 1024}));
  EXPECT_EQ(within.find("budget"), std::string::npos) << within;
  m.provenance.settings.erase("budget");
  const auto unbudgeted = calc::format_answer(m, calc::ask(m, {"pingpong", 2, 1 << 20}));
  EXPECT_NE(unbudgeted.find("Extrapolated"), std::string::npos);
  EXPECT_EQ(unbudgeted.find("budget"), std::string::npos) << unbudgeted;
}

TEST(BenchBudget, TheRunReportSaysTheBudgetLeftOutWhatItExtrapolatesTo) {
  auto rank = revprof::Ledger{}.to_json(0, 1.0);
  rank["extrapolated"] = revprof::extrapolations_to_json({{"pingpong", {1 << 20, 2, {65536, 2}}}});
  const auto note = *model::BudgetRecord::from_settings(budgeted_model().provenance.settings);
  const auto text = revprof::format_report(revprof::make_report({rank}, {{"machine", "m"}, {"budget_note", note.note()}}));
  EXPECT_NE(text.find("messages up to 1 MiB (measured up to 64 KiB)"), std::string::npos) << text;
  EXPECT_NE(text.find("The model was measured within a budget: the 3m00s budget of augur bench left out messages above "
                      "64 KiB"),
            std::string::npos)
      << text;
}

}  // namespace
