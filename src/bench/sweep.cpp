#include "bench/sweep.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include <fmt/format.h>

#include "bench/compute_probe.hpp"
#include "bench/kernel.hpp"
#include "bench/state_probe.hpp"
#include "model/units.hpp"

namespace augur::bench {
namespace {

constexpr int kRetriesOfDisturbedPoints = 2;

// Share of the budget for the base sweep; the rest pays for refinement.
constexpr double kBaseShare = 0.85;

// What the progress line and warnings call a point: "MPI_Bcast p=4 64 KiB".
std::string label(const Point& point) {
  const auto& shape = kOperations[point.operation];
  std::string text = model::mpi_name(shape.name) + " p=" + std::to_string(point.p);
  if (point.placement.recorded())
    text += " (" + std::to_string(point.placement.nodes) + "×" + std::to_string(point.placement.ranks_per_node) + ")";
  if (shape.sizes != Sizes::none) text += fmt::format(" {}", model::format_bytes(static_cast<double>(point.bytes)));
  return text;
}

// The record of a point the MPI library failed, and a line for the person watching: the
// progress line goes on with the next operation.
void record_unmeasurable(const Point& point, const std::string& error, fit::RawWriter& out, int pass) {
  const auto name = kOperations[point.operation].name;
  out.write(fit::Unmeasurable{std::string(name), point.p, double(point.bytes), error, pass});
  std::fprintf(stderr, "\naugur-bench-mpi: %s: the MPI library could not run it (%s); its other points are left out\n",
               label(point).c_str(), fit::error_headline(error).c_str());
}

fit::Measurement to_measurement(const Point& point, const PointResult& r, int pass) {
  const Summary& s = r.summary;
  const auto name = kOperations[point.operation].name;
  fit::Measurement m{std::string(name), point.p, double(point.bytes), s.min, s.median, s.mean,
                     s.max, s.stddev, s.count, r.skew, r.clock_error, {}, pass};
  if (is_rooted(name)) m.roles = fit::RoleTimes{r.root, r.others};
  m.calls = r.calls;
  m.nodes = point.placement.nodes;
  m.ranks_per_node = point.placement.ranks_per_node;
  if (r.state_probe > 0) m.state_probe = r.state_probe;
  if (r.compute_probe > 0) m.compute_probe = r.compute_probe;
  return m;
}

// Rank 0's bookkeeping: what is finished, the curves so far, and the clock of the budget.
class Conductor {
 public:
  // Finished are the points `earlier` holds from this pass. When `refining`, the curves that
  // refinement bends are the fastest of this pass's and the earlier ones'.
  Conductor(const SweepSettings& settings, const fit::RawSet& earlier, bool refining)
      : settings_(settings), budget_(settings.pass_budget_seconds()), refining_(refining) {
    for (const auto& m : earlier.points) {
      const int op = operation_index(m.op);
      if (op >= 0 && m.pass == settings.pass)
        done_.insert({op, m.p, static_cast<std::uint64_t>(m.bytes), placement_of(m)});
    }
    // Whatever pass found it: the library that failed it then fails it again.
    for (const auto& u : earlier.unmeasurable)
      if (const int op = operation_index(u.op); op >= 0) unmeasurable_.insert(op);
    if (refining_) fastest_ = fastest_times(earlier.points, settings.pass);
  }

  bool finished(const Point& point) const { return done_.contains(point); }
  // The MPI library failed the operation at some point: none of its points is measured.
  bool unmeasurable(int operation) const { return unmeasurable_.contains(operation); }
  void fail(int operation) { unmeasurable_.insert(operation); }

  void record(const Point& point, const Summary& summary) {
    done_.insert(point);
    if (!refining_) return;
    fastest_.keep({point.operation, point.p, point.placement}, point.bytes, summary.median);
  }

  double elapsed() const { return MPI_Wtime() - start_; }

  // Time limit for a point when `points_left` points (this one included) share what is left.
  double point_seconds(int points_left, double share) const {
    if (budget_ <= 0) return settings_.point_seconds;
    const double left = budget_ * share - elapsed();
    return std::clamp(left / std::max(points_left, 1), 0.0, settings_.point_seconds);
  }

  bool budget_left() const { return budget_ <= 0 || elapsed() < budget_; }

  // Past this launch's time limit: the points not reached are left to the other passes.
  bool time_up() const { return settings_.stop_after_seconds > 0 && elapsed() >= settings_.stop_after_seconds; }

  Curve curve(const CurveKey& key) const { return fastest_.curve(key); }

 private:
  SweepSettings settings_;
  double budget_;  // this pass's share of the run's
  bool refining_;
  std::set<Point> done_;
  std::set<int> unmeasurable_;
  FastestTimes fastest_;
  double start_ = MPI_Wtime();
};

// The sizes of the ladder in `curve`. Refinement proposes from them alone, in one round: a size it
// adds is measured once in that pass, and a second round judged on it split two runs' choices
// around one step (1792 B against 3584 B); a resumed pass proposes what the interrupted one did.
Curve ladder_part(const Curve& curve, const std::vector<std::uint64_t>& ladder) {
  Curve part;
  for (const auto& point : curve)
    if (std::binary_search(ladder.begin(), ladder.end(), point.first)) part.push_back(point);
  return part;
}

}  // namespace

Sweep::Sweep(const SweepSettings& settings, const std::vector<int>& group_sizes, const NodeMap& here)
    : settings_(settings), groups_(make_groups(group_keys(group_sizes, here), here)), buffers_(settings.fresh_buffers) {}

Sweep::~Sweep() { free_groups(groups_); }

std::optional<PointResult> Sweep::execute(Command command) {
  MPI_Bcast(&command, sizeof command, MPI_BYTE, 0, MPI_COMM_WORLD);
  if (command.operation < 0) {
    over_ = true;
    return std::nullopt;
  }
  if (command.trial) return attempt(command);
  std::optional<PointResult> result;
  const double probe_before = probe_machine_state();
  const Group& group = groups_.at({command.p, command.placement});
  if (group.member()) {
    const MeasureSettings measure{settings_.warmup,
                                  {settings_.min_reps, settings_.max_reps, command.seconds, settings_.target},
                                  settings_.discard_preempted,
                                  settings_.sync,
                                  settings_.back_to_back};
    result = measure_point(kernel_for(command.operation), group, command.bytes, measure, buffers_);
  }
  idle_barrier();
  const double probe_after = probe_machine_state();
  const double compute_probe = probe_compute_speed();
  if (result) {
    result->state_probe = std::max(probe_before, probe_after);
    result->compute_probe = compute_probe;
  }
  return result;
}

std::optional<PointResult> Sweep::attempt(const Command& command) {
  std::optional<PointResult> result;
  const Group& group = groups_.at({command.p, command.placement});
  if (group.member()) {
    result.emplace();
    result->not_measurable = try_point(kernel_for(command.operation), group, command.bytes, buffers_);
  }
  idle_barrier();
  return result;
}

void Sweep::follow() {
  while (!over_) execute(Command{});  // the command is replaced by rank 0's broadcast
}

void Sweep::conduct(const std::vector<Point>& plan, const fit::RawSet& earlier, fit::RawWriter& out,
                    Progress& progress) {
  const bool refine = settings_.refine_limit > 0 && settings_.pass == refinement_pass(settings_.passes);
  Conductor conductor(settings_, earlier, refine);
  int pending = static_cast<int>(std::count_if(plan.begin(), plan.end(),
                                               [&](const Point& x) { return !conductor.finished(x); }));
  const double base_share = refine ? kBaseShare : 1.0;
  long discarded = 0;

  auto measure = [&](const Point& point, double seconds) {
    auto result = execute({point.operation, point.p, point.bytes, point.placement, seconds});
    discarded += result->discarded;
    // Nearly every repetition disturbed: the median timed the scheduler. Try again (a burst of
    // other work is usually over by then) before recording what there is.
    for (int retry = 0; retry < kRetriesOfDisturbedPoints && result->mostly_disturbed; ++retry) {
      result = execute({point.operation, point.p, point.bytes, point.placement, seconds});
      discarded += result->discarded;
    }
    if (!result->not_measurable.empty()) {
      record_unmeasurable(point, result->not_measurable, out, settings_.pass);
      conductor.fail(point.operation);
      progress.advance(label(point), true);
      return;
    }
    try {
      out.write(to_measurement(point, *result, settings_.pass));
      conductor.record(point, result->summary);
    } catch (const std::invalid_argument& e) {
      std::fprintf(stderr, "\naugur-bench-mpi: %s not recorded: %s\n", label(point).c_str(), e.what());
    }
    progress.advance(label(point), true);
  };

  // The first pass tries each operation's first point before measuring any: an operation the
  // library cannot run is then known, and recorded, however little of the sweep the budget lets
  // this pass reach (over a busy TCP link a quick pass measured 289 of 938 points).
  if (settings_.pass == 1) {
    std::set<int> tried;
    for (const auto& point : plan) {
      if (conductor.unmeasurable(point.operation) || !tried.insert(point.operation).second) continue;
      const auto result = execute({point.operation, point.p, point.bytes, point.placement, 0, true});
      if (result->not_measurable.empty()) continue;
      record_unmeasurable(point, result->not_measurable, out, settings_.pass);
      conductor.fail(point.operation);
    }
  }

  for (const auto& point : plan) {
    const bool unmeasurable = conductor.unmeasurable(point.operation);
    if (unmeasurable || conductor.finished(point)) {
      if (unmeasurable && !conductor.finished(point)) --pending;
      progress.advance(label(point), false);
      continue;
    }
    if (conductor.time_up()) {
      progress.stopped(pending);
      break;
    }
    measure(point, conductor.point_seconds(pending--, base_share));
  }

  std::set<CurveKey> curves;
  for (const auto& point : plan)
    if (refine && kOperations[point.operation].sizes != Sizes::none && !conductor.unmeasurable(point.operation))
      curves.insert({point.operation, point.p, point.placement});
  std::map<Sizes, std::vector<std::uint64_t>> ladders;
  for (const auto& key : curves) {
    if (!conductor.budget_left() || conductor.time_up()) break;
    const Sizes sizes = kOperations[key.operation].sizes;
    auto [ladder, fresh] = ladders.try_emplace(sizes);
    if (fresh) ladder->second = size_ladder(sizes, settings_.max_bytes);
    auto extra = refinement_sizes(ladder_part(conductor.curve(key), ladder->second), sizes, settings_.refine_tolerance,
                                  settings_.refine_limit);
    std::erase_if(extra, [&](std::uint64_t bytes) { return conductor.finished({key.operation, key.p, bytes, key.placement}); });
    progress.extend(static_cast<int>(extra.size()));
    for (auto bytes : extra) measure({key.operation, key.p, bytes, key.placement}, conductor.point_seconds(1, 1.0));
  }
  execute(Command{});
  progress.finish(discarded);
}

}  // namespace augur::bench
