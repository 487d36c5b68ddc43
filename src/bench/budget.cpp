#include "bench/budget.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "bench/progress.hpp"
#include "bench/settings.hpp"
#include "model/units.hpp"

namespace augur::bench {
namespace {

// Round trips around every point besides its repetitions: the state probes before and after
// (1 + 12 each, state_probe.hpp) and the command, batches and barrier of the sweep.
constexpr double kRoundTripsPerPoint = 30;
// Clock synchronisation: 12 ping-pongs of rank 0 with every other rank (clock_sync.hpp).
constexpr double kClockRoundTripsPerRank = 12;
// Work per point that is not communication: buffers, the kernel's setup, writing the record
// (300 µs), and the compute probe after it (65536 steps of about 2.4 ns, compute_probe.hpp).
constexpr double kPointWorkSeconds = 300e-6 + 160e-6;
// Back-to-back sequences (measure.hpp): calls of 50 µs or less repeat to fill about 100 µs.
constexpr double kSequenceFill = 100e-6;
constexpr double kLongestSequencedCall = 50e-6;
// Windows are twice the repetition apart (measure.hpp), so a timed repetition costs two.
constexpr double kWindowFactor = 2;
// The sizes refinement adds, as a share of a pass.
constexpr double kRefinementShare = 0.1;
// The fewest repetitions may use this share of what the passes may spend; the sweep's pacing
// spends the rest on medians not yet precise, and it is the slack when the machine slows down.
constexpr double kFewestRepsShare = 0.6;
// The passes together may spend this share of the budget left after the fixed part.
constexpr double kMeasuringShare = 0.92;
// The order of giving up (see budget.hpp): passes down to those whose faster half is still
// several, messages down to 64 KiB, then 4 KiB.
constexpr int kPooledPasses = 5;
constexpr std::uint64_t kFirstSmallestMessage = 64 * 1024;
constexpr std::uint64_t kLastSmallestMessage = 4 * 1024;

double log2_ceil(int p) { return std::ceil(std::log2(std::max(p, 2))); }

// Messages in a row on the critical path of one call.
double messages_per_call(const OperationShape& shape, const Point& point) {
  if (shape.name == "pingpong") return 2.0 * pingpong_rounds(point.bytes);
  // The untimed call and the calls timed in a row after it (operation_table.hpp).
  if (is_pair_exchange(shape.name)) return 1.0 + fewest_calls_in_a_row(shape.name, point.bytes);
  // Computation twice the transfer sits between the post and the wait.
  if (shape.name.ends_with("overlap")) return 3;
  if (shape.groups == Groups::pair) return 1;
  if (shape.name.starts_with("comm_")) return 4 * log2_ceil(point.p);
  if (shape.sizes == Sizes::none) return 2 * log2_ceil(point.p);
  return point.p - 1;
}

}  // namespace

double message_seconds(const Calibration& c, double bytes) {
  const double linear = c.latency + bytes / c.bandwidth;
  const auto& m = c.messages;
  if (m.empty() || bytes < m.front().first) return linear;
  if (bytes >= m.back().first) return std::max(linear, m.back().second * bytes / m.back().first);
  const auto above = std::upper_bound(m.begin(), m.end(), bytes, [](double b, const auto& point) { return b < point.first; });
  const auto below = above - 1;
  const double share = (bytes - below->first) / (above->first - below->first);
  return std::max(linear, below->second + share * (above->second - below->second));
}

double point_seconds(const Calibration& c, const Point& point, int warmup, int reps) {
  const auto& shape = kOperations[point.operation];
  const double message = message_seconds(c, double(point.bytes));
  double call = messages_per_call(shape, point) * message;
  if (call <= kLongestSequencedCall) call = std::max(call, std::min(kSequenceFill, 64 * call));
  const double repetition = 2 * log2_ceil(point.p) * c.latency + call;
  const double around = (kRoundTripsPerPoint + kClockRoundTripsPerRank * (point.p - 1)) * 2 * c.latency;
  return kPointWorkSeconds + around + (warmup + kWindowFactor * reps) * repetition;
}

double pass_seconds(const Calibration& c, const std::vector<Point>& plan, int warmup, int reps) {
  double sum = 0;
  for (const auto& point : plan) sum += point_seconds(c, point, warmup, reps);
  return c.launch_seconds + (1 + kRefinementShare) * sum;
}

double fit_seconds(double measurements) { return 1.0 + measurements * 1.8e-4; }

namespace {

struct Evaluated {
  double pass = 0, fixed = 0, room = 0;
  int points = 0;
};

Evaluated evaluate(const Calibration& c, const BudgetRequest& r, const BudgetPlan& plan) {
  const auto points = base_plan(r.operations, plan.groups, plan.max_bytes, r.machine);
  Evaluated e;
  e.points = static_cast<int>(points.size());
  e.pass = pass_seconds(c, points, plan.warmup, reps_per_pass(r.min_reps, r.passes));
  e.fixed = r.spent_seconds + r.kernel_seconds + fit_seconds((1 + kRefinementShare) * e.points * plan.passes);
  e.room = std::max(0.0, r.budget_seconds - e.fixed) * kMeasuringShare;
  return e;
}

int passes_within(const Evaluated& e) {
  return static_cast<int>(std::floor(kFewestRepsShare * e.room / std::max(e.pass, 1e-9)));
}

// One step of giving up, in the order of budget.hpp; false when nothing is left to give up. On
// several nodes the groups spanning them are what the run is for, and the remaining passes go
// before them.
bool give_up_one(BudgetPlan& plan, int passes_within_budget, bool several_nodes) {
  if (plan.passes > kPooledPasses) {
    plan.passes = std::max(kPooledPasses, passes_within_budget);
    return true;
  }
  if (plan.max_bytes > kFirstSmallestMessage) {
    plan.max_bytes = std::max(kFirstSmallestMessage, plan.max_bytes / 2);
    return true;
  }
  if (plan.groups.size() > 1 && !several_nodes) {
    plan.groups.pop_back();
    return true;
  }
  if (plan.passes > 1) {
    plan.passes = std::clamp(passes_within_budget, 1, plan.passes - 1);
    return true;
  }
  if (plan.groups.size() > 1) {
    plan.groups.pop_back();
    return true;
  }
  if (plan.max_bytes > kLastSmallestMessage) {
    plan.max_bytes = std::max(kLastSmallestMessage, plan.max_bytes / 2);
    return true;
  }
  if (plan.warmup > 1) {
    plan.warmup = 1;
    return true;
  }
  return false;
}

}  // namespace

BudgetPlan plan_budget(const Calibration& c, const BudgetRequest& r) {
  BudgetPlan plan;
  plan.passes = r.passes;
  plan.max_bytes = r.max_bytes;
  plan.groups = r.groups;
  plan.warmup = r.warmup;
  Evaluated e = evaluate(c, r, plan);
  while (passes_within(e) < plan.passes) {
    if (!give_up_one(plan, passes_within(e), r.machine.several())) {
      plan.fits = false;
      break;
    }
    e = evaluate(c, r, plan);
  }
  plan.reps_per_pass = reps_per_pass(r.min_reps, r.passes);
  plan.max_reps_per_pass = std::max(plan.reps_per_pass, reps_per_pass(r.max_reps, r.passes));
  plan.pass_seconds = e.pass;
  plan.fixed_seconds = e.fixed;
  plan.estimate_seconds = e.fixed + plan.passes * e.pass;
  plan.measuring_seconds = std::max(e.room, plan.passes * e.pass);
  return plan;
}

int passes_that_fit(int planned, int most, int made, double last_pass_seconds, double seconds_left) {
  if (last_pass_seconds <= 0) return planned;
  auto fitting = [&](double each) { return made + static_cast<int>(std::floor(std::max(0.0, seconds_left) / each)); };
  const int within_plan = std::clamp(fitting(last_pass_seconds), made, planned);
  if (within_plan < planned) return within_plan;
  return std::clamp(fitting(kExtraPassMargin * last_pass_seconds), planned, std::max(planned, most));
}

namespace {

std::string group_list(const std::vector<int>& groups) {
  std::string text;
  for (int p : groups) text += (text.empty() ? "" : ", ") + std::to_string(p);
  return text;
}

std::vector<int> groups_left_out(const BudgetPlan& plan, const BudgetRequest& r) {
  std::vector<int> out;
  for (int p : r.groups)
    if (std::find(plan.groups.begin(), plan.groups.end(), p) == plan.groups.end()) out.push_back(p);
  return out;
}

// What the plan gave up, in the order it gives things up.
std::vector<std::string> given_up(const BudgetPlan& plan, const BudgetRequest& r) {
  std::vector<std::string> out;
  if (plan.passes < r.passes) out.push_back(fmt::format("{} of {} passes", r.passes - plan.passes, r.passes));
  if (plan.max_bytes < r.max_bytes)
    out.push_back(fmt::format("messages above {} (up to {} without a budget)", model::format_bytes(double(plan.max_bytes)),
                              model::format_bytes(double(r.max_bytes))));
  if (const auto groups = groups_left_out(plan, r); !groups.empty())
    out.push_back("groups of " + group_list(groups) + " processes");
  if (plan.warmup < r.warmup) out.push_back(fmt::format("warm-up {} instead of {}", plan.warmup, r.warmup));
  return out;
}

}  // namespace

std::vector<std::string> describe_plan(const BudgetPlan& plan, const BudgetRequest& r, const Calibration& c) {
  std::vector<std::string> lines;
  std::string measured;
  for (const auto& [bytes, seconds] : c.messages)
    measured += fmt::format(", {} in {}", model::format_bytes(bytes), model::format_seconds(seconds));
  lines.push_back(fmt::format("budget {}; network: {} one way{}, {}/s beyond; a launch {}", format_duration(r.budget_seconds),
                              model::format_seconds(c.latency), measured, model::format_bytes(c.bandwidth),
                              model::format_seconds(c.launch_seconds)));
  const auto points = base_plan(r.operations, plan.groups, plan.max_bytes, r.machine).size();
  lines.push_back(fmt::format("plan: {} passes of {} points, messages up to {}, groups of {} processes, {} warm-up and "
                              "at least {} repetitions a point per pass",
                              plan.passes, points, model::format_bytes(double(plan.max_bytes)), group_list(plan.groups),
                              plan.warmup, plan.reps_per_pass));
  lines.push_back(fmt::format("estimate: {} at the fewest repetitions ({} a pass, {} for calibration, node kernels and fit); "
                              "the passes may spend {} in all",
                              format_duration(plan.estimate_seconds), format_duration(plan.pass_seconds),
                              format_duration(plan.fixed_seconds), format_duration(plan.measuring_seconds)));
  const auto out = given_up(plan, r);
  if (out.empty()) lines.emplace_back("left out: nothing");
  else {
    std::string text;
    for (const auto& item : out) text += fmt::format("{}{}", text.empty() ? "" : "; ", item);
    lines.push_back("left out for the budget: " + text);
  }
  if (!plan.fits)
    lines.push_back(fmt::format("the budget cannot hold even this plan: about {} expected", format_duration(plan.estimate_seconds)));
  return lines;
}

nlohmann::json left_out_record(const BudgetPlan& plan, const BudgetRequest& r, int passes_made) {
  return {{"budget_seconds", r.budget_seconds},
          {"estimate_seconds", plan.estimate_seconds},
          {"preset", {{"passes", r.passes}, {"max_bytes", r.max_bytes}, {"groups", r.groups}, {"warmup", r.warmup}}},
          {"planned", {{"passes", plan.passes}, {"max_bytes", plan.max_bytes}, {"groups", plan.groups}, {"warmup", plan.warmup}}},
          {"passes_made", passes_made},
          {"groups_left_out", groups_left_out(plan, r)}};
}

}  // namespace augur::bench
