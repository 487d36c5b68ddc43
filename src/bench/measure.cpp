#include "bench/measure.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "bench/clock_sync.hpp"
#include "bench/kernel_errors.hpp"
#include "bench/operation_table.hpp"

namespace augur::bench {
namespace {

constexpr int kRoot = 0;

// Windows are this many times the fastest warm-up repetition (barrier included) apart, so that a
// repetition and the next barrier fit with room to spare; doubled whenever many ranks are late.
// Not the slowest repetition: the first is often several times longer, and a rank that waits
// long for its window sends into a cold path (over TCP here, a round trip after a 100 µs pause
// takes 18 µs, after 20 µs 14 µs, back to back 13 µs). Not the last either: one preempted
// repetition would widen every window of the point a hundredfold.
constexpr double kWindowHeadroom = 2.0;
constexpr double kShortestWindow = 5e-6;
constexpr double kLateShareThatWidens = 0.25;
// The first window of a batch lies this many windows ahead, so the broadcast announcing it has
// reached every rank in time.
constexpr int kLeadWindows = 4;
constexpr double kShortestLead = 50e-6;
// A back-to-back sequence fills about this long, with at most this many calls: long enough that
// the first call after the barrier, slower than the rest, weighs little in the mean.
constexpr double kSequenceSeconds = 100e-6;
constexpr int kLongestSequence = 64;

struct Sample {
  double seconds = 0;       // mean per call
  double root_seconds = 0;  // mean per call of the calls this rank was the root of
  bool disturbed = false;   // preempted, or late for its window
  double start = 0;         // when the timed part began, in rank 0's time base
};

// The start of a batch's windows; window i begins at first + i * length (rank 0's time base).
struct Windows {
  double first = 0;
  double length = 0;
};

// Involuntary context switches of the calling thread: the operating system took the processor
// away, and the repetition measured the scheduler rather than MPI.
long preemptions() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return usage.ru_nivcsw;
}

// Spins until the local clock reaches `target`; false when it had already passed.
bool wait_until(double target) {
  if (MPI_Wtime() >= target) return false;
  while (MPI_Wtime() < target) {
  }
  return true;
}

class Repeater {
 public:
  Repeater(const Kernel& kernel, const Group& group, std::uint64_t bytes, Buffers& buffers)
      : kernel_(kernel), buffers_(buffers), context_{group, bytes, nullptr, nullptr, 0, state_} {
    buffers_.reserve(bytes * static_cast<std::uint64_t>(group.size));
    use_buffers(0);
    fail_when_asked(kernel_.name, group.comm);
    if (kernel_.setup) kernel_.setup(context_);
  }
  ~Repeater() {
    if (kernel_.teardown && set_up_) kernel_.teardown(context_);
  }

  // The setup failed on some rank: what it made is left as it is, as taking apart what is half
  // made could fail again where no handler returns the error.
  void abandon() { set_up_ = false; }
  Repeater(const Repeater&) = delete;
  Repeater& operator=(const Repeater&) = delete;

  // `lead`: one untimed call before the timed ones, as the ping-pong's untimed round trip.
  void set_sequence(int calls, bool chained, bool lead) {
    sequence_ = calls;
    chained_ = chained;
    lead_ = lead;
  }

  // `window_start` is this rank's local clock reading at which to start, or negative for none.
  Sample once(const ClockOffset& clock, double window_start) {
    use_buffers(next_rep_++);
    if (kernel_.before_sync) kernel_.before_sync(context_);
    // Counted from before the barrier: a rank preempted on its way out of the barrier delays
    // its partners' timed part without being preempted inside its own.
    const long before = preemptions();
    MPI_Barrier(context_.comm());
    const bool on_time = window_start < 0 || wait_until(window_start);
    const double begin = MPI_Wtime();
    if (lead_) kernel_.call(context_);
    auto [seconds, root_seconds] = timed_as_whole() ? run_whole(lead_ ? MPI_Wtime() : begin) : run_each();
    // A late rank's delay counts: the others started at the window. A rank on time left its
    // wait a clock reading after the window, as every rank did, so that overshoot is not
    // counted: added to every repetition, it made an 8-byte ping-pong's half round trip read
    // 0.345 µs against 0.28 µs in a program's loop (barrier synchronisation: 0.28 µs). Ranks
    // whose time does not count (they return 0) stay out.
    if (window_start >= 0 && !on_time && seconds > 0) seconds += (begin - window_start) / sequence_;
    return {seconds, root_seconds, preemptions() != before || !on_time, global_time(begin, clock)};
  }

 private:
  // One reading before and one after the whole sequence: nothing but the calls in between, as
  // in a program's loop. Sequences whose root takes turns time each call, for the root's share.
  bool timed_as_whole() const { return sequence_ > 1 && !chained_; }

  // Mean seconds per call: of all the calls, and of those this rank was the root of (all calls
  // when it was the root of none).
  struct PerCall {
    double seconds = 0, root_seconds = 0;
  };

  // A sequence that began at `begin`, timed as a whole.
  PerCall run_whole(double begin) {
    context_.root = kRoot;
    for (int i = 0; i < sequence_; ++i) kernel_.call(context_);
    const double seconds = since(begin) / sequence_;
    return {seconds, seconds};
  }

  // Each call timed by the kernel.
  PerCall run_each() {
    double seconds = 0, as_root = 0;
    int root_calls = 0;
    for (int i = 0; i < sequence_; ++i) {
      context_.root = chained_ ? i % context_.size() : kRoot;
      const double call = kernel_.run(context_);
      seconds += call;
      if (context_.root == context_.rank()) {
        as_root += call;
        ++root_calls;
      }
    }
    seconds /= sequence_;
    return {seconds, root_calls > 0 ? as_root / root_calls : seconds};
  }

  void use_buffers(int rep) {
    context_.rep = rep;
    context_.send = buffers_.send(rep);
    context_.recv = buffers_.recv(rep);
  }

  PointErrors errors_;  // from before the setup to after the teardown
  const Kernel& kernel_;
  Buffers& buffers_;
  PointState state_;
  RepContext context_;
  bool set_up_ = true;
  int next_rep_ = 0;
  int sequence_ = 1;
  bool chained_ = false;
  bool lead_ = false;
};

// Fewest undisturbed repetitions worth a median; with fewer, the disturbed ones are used too.
constexpr int kFewestClean = 3;

// What one batch's reduction carries per repetition: the slowest time, whether any rank was
// disturbed, the latest start, the negated earliest start (so one MPI_MAX does all), and the
// slowest time of the ranks other than rank 0. Rank 0 keeps its own times as the root beside.
constexpr int kFields = 5;

// A quantity of the kept repetitions, and of every repetition in case too few were kept.
struct Series {
  std::vector<double> kept, every;
  void add(double value, bool keep) {
    every.push_back(value);
    if (keep) kept.push_back(value);
  }
};

// Rank 0's record of the repetitions: the undisturbed ones decide, the others are kept in case
// too few were undisturbed.
struct Record {
  bool discard_preempted = true;
  Series times, skews, root, others;

  // `own` are rank 0's times as the root in the batch. Returns how many repetitions were disturbed.
  int add(const std::vector<double>& slowest, const std::vector<double>& own, int batch) {
    int disturbed = 0;
    for (int i = 0; i < batch; ++i) {
      const bool clean = slowest[batch + i] == 0;
      const bool keep = clean || !discard_preempted;
      if (!clean) ++disturbed;
      times.add(slowest[i], keep);
      skews.add(slowest[2 * batch + i] + slowest[3 * batch + i], keep);
      root.add(own[i], keep);
      others.add(slowest[4 * batch + i], keep);
    }
    return disturbed;
  }
  bool enough_kept() const {
    return static_cast<int>(times.kept.size()) >= kFewestClean || times.kept.size() == times.every.size();
  }
  // The most recent max_reps repetitions when falling back to disturbed ones.
  std::vector<double> best(const Series& series, int max_reps) const {
    if (enough_kept()) return series.kept;
    const std::size_t keep = std::min<std::size_t>(series.every.size(), max_reps);
    return {series.every.end() - static_cast<std::ptrdiff_t>(keep), series.every.end()};
  }
  double median(const Series& series, int max_reps) const { return summarize(best(series, max_reps)).median; }
};

// Warm-up times over the group: the fastest whole repetition with its barrier (the basis of the
// window), and the fastest call alone (the basis of the back-to-back sequence: with the barrier
// in it, a 10 µs collective over TCP looked too long to repeat). The fastest of each, not the
// last: one preempted call would otherwise time the whole point one call at a time.
struct WarmUp {
  double repetition = 0, call = 0;
  double error = MPI_SUCCESS;  // the highest error code recorded on a rank (kernel_errors.hpp)
};

WarmUp warm_up(Repeater& repeat, const Group& group, int repetitions, const ClockOffset& clock) {
  constexpr double kNone = std::numeric_limits<double>::infinity();
  WarmUp w{kNone, kNone, MPI_SUCCESS};
  for (int i = 0; i < std::max(repetitions, 1); ++i) {
    const double t0 = MPI_Wtime();
    w.call = std::min(w.call, repeat.once(clock, -1).seconds);
    w.repetition = std::min(w.repetition, MPI_Wtime() - t0);
  }
  w.error = recorded_error();
  MPI_Allreduce(MPI_IN_PLACE, &w, 3, MPI_DOUBLE, MPI_MAX, group.comm);
  return w;
}

// Rank 0 decides how many repetitions come next and, for window synchronisation, when they start.
struct BatchPlan {
  int reps = 0;
  Windows windows;
  int error = MPI_SUCCESS;  // a rank's error in the last batch: no more batches
};

BatchPlan next_windows(int reps, double length) {
  return {reps, {MPI_Wtime() + std::max(kLeadWindows * length, kShortestLead), length}};
}

PointResult not_measurable(int error) {
  PointResult result;
  result.not_measurable = error_text(error);
  return result;
}

}  // namespace

std::string try_point(const Kernel& kernel, const Group& group, std::uint64_t bytes, Buffers& buffers) {
  Repeater repeat(kernel, group, bytes, buffers);
  if (const int error = agreed_error(group.comm); error != MPI_SUCCESS) {
    repeat.abandon();
    return error_text(error);
  }
  repeat.once(ClockOffset{}, -1);
  const int error = agreed_error(group.comm);
  return error == MPI_SUCCESS ? std::string() : error_text(error);
}

PointResult measure_point(const Kernel& kernel, const Group& group, std::uint64_t bytes,
                          const MeasureSettings& settings, Buffers& buffers) {
  Repeater repeat(kernel, group, bytes, buffers);
  if (const int error = agreed_error(group.comm); error != MPI_SUCCESS) {
    repeat.abandon();
    return not_measurable(error);
  }
  const ClockOffset clock = estimate_clock_offset(group);
  // The warm-up runs the fewest calls in a row the point will time, so that its times, and the
  // windows made from them, are those of the loop: a rested link's single call sized the windows
  // of a TCP loop of 64 KiB MPI_Sendrecvs ten times too short, and every late rank's wait was
  // counted into its calls (2.4 ms a call against 1.05 ms in a ring).
  const bool in_a_row = settings.back_to_back && repeats_back_to_back(kernel);
  const int fewest = in_a_row ? fewest_calls_in_a_row(kernel.name, bytes) : 1;
  const bool lead = in_a_row && is_pair_exchange(kernel.name);
  repeat.set_sequence(fewest, chains_roots(kernel), lead);
  const WarmUp warmup = warm_up(repeat, group, settings.warmup, clock);
  if (warmup.error != MPI_SUCCESS) return not_measurable(static_cast<int>(warmup.error));
  const bool windowed = settings.sync == Sync::window;
  // The same on every rank: the warm-up times are the group's maxima.
  int sequence = fewest;
  if (in_a_row && warmup.call > 0)
    sequence = std::clamp(static_cast<int>(kSequenceSeconds / warmup.call), fewest, std::max(fewest, kLongestSequence));
  repeat.set_sequence(sequence, chains_roots(kernel), lead);
  const double calls = sequence + (lead ? 1 : 0);
  double window = std::max(kWindowHeadroom * std::max(warmup.repetition, warmup.call * calls), kShortestWindow);

  Record record{settings.discard_preempted, {}, {}, {}, {}};
  const bool root = group.rank == kRoot;
  const double start = MPI_Wtime();
  BatchPlan plan = next_windows(settings.limits.min_reps, window);
  MPI_Bcast(&plan, sizeof plan, MPI_BYTE, kRoot, group.comm);
  while (plan.reps > 0) {
    const int batch = plan.reps;
    // The last field is the rank's error code, so that a failure anywhere ends the point.
    std::vector<double> mine(kFields * batch + 1), slowest(kFields * batch + 1), as_root(batch);
    for (int i = 0; i < batch; ++i) {
      const double at = windowed ? plan.windows.first + i * plan.windows.length + clock.offset : -1;
      const Sample s = repeat.once(clock, at);
      mine[i] = s.seconds;
      mine[batch + i] = s.disturbed ? 1 : 0;
      mine[2 * batch + i] = s.start;
      mine[3 * batch + i] = -s.start;
      mine[4 * batch + i] = root ? 0 : s.seconds;
      as_root[i] = s.root_seconds;
    }
    mine.back() = recorded_error();
    MPI_Reduce(mine.data(), slowest.data(), kFields * batch + 1, MPI_DOUBLE, MPI_MAX, kRoot, group.comm);
    if (root && slowest.back() != MPI_SUCCESS) {
      plan = {};
      plan.error = static_cast<int>(slowest.back());
    } else if (root) {
      const int disturbed = record.add(slowest, as_root, batch);
      if (windowed && disturbed > kLateShareThatWidens * batch) window *= 2;
      plan = next_windows(further_repetitions(record.times.kept, static_cast<int>(record.times.every.size()), since(start),
                                              settings.limits),
                          window);
    }
    MPI_Bcast(&plan, sizeof plan, MPI_BYTE, kRoot, group.comm);
  }
  if (plan.error != MPI_SUCCESS) return not_measurable(plan.error);
  PointResult result;
  if (root) {
    const int max_reps = settings.limits.max_reps;
    const auto samples = record.best(record.times, max_reps);
    result.ci_halfwidth = median_ci_relative_halfwidth(samples);
    result.discarded = static_cast<int>(record.times.every.size() - record.times.kept.size());
    result.summary = summarize(samples);
    result.skew = record.median(record.skews, max_reps);
    result.clock_error = clock.uncertainty;
    result.root = record.median(record.root, max_reps);
    result.others = record.median(record.others, max_reps);
    result.mostly_disturbed = !record.enough_kept();
  }
  result.calls = sequence;
  return result;
}

}  // namespace augur::bench
