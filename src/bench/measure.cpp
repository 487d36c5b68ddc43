#include "bench/measure.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <vector>

namespace augur::bench {
namespace {

constexpr int kRoot = 0;

struct Sample {
  double seconds = 0;
  bool disturbed = false;  // this rank was preempted during the repetition
};

// Involuntary context switches of the calling thread: the operating system took the processor
// away, and the repetition measured the scheduler rather than MPI.
long preemptions() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return usage.ru_nivcsw;
}

class Repeater {
 public:
  Repeater(const Kernel& kernel, const Group& group, std::uint64_t bytes, Buffers& buffers)
      : kernel_(kernel), buffers_(buffers), context_{group, bytes, nullptr, nullptr, 0, state_} {
    buffers_.reserve(bytes * static_cast<std::uint64_t>(group.size));
    use_buffers(0);
    if (kernel_.setup) kernel_.setup(context_);
  }
  ~Repeater() {
    if (kernel_.teardown) kernel_.teardown(context_);
  }
  Repeater(const Repeater&) = delete;
  Repeater& operator=(const Repeater&) = delete;

  Sample once() {
    use_buffers(next_rep_++);
    if (kernel_.before_sync) kernel_.before_sync(context_);
    // Counted from before the barrier: a rank preempted on its way out of the barrier delays
    // its partners' timed part without being preempted inside its own.
    const long before = preemptions();
    MPI_Barrier(context_.comm());
    const double seconds = kernel_.run(context_);
    return {seconds, preemptions() != before};
  }

 private:
  void use_buffers(int rep) {
    context_.rep = rep;
    context_.send = buffers_.send(rep);
    context_.recv = buffers_.recv(rep);
  }

  const Kernel& kernel_;
  Buffers& buffers_;
  PointState state_;
  RepContext context_;
  int next_rep_ = 0;
};

// Fewest undisturbed repetitions worth a median; with fewer, the disturbed ones are used too.
constexpr int kFewestClean = 3;

// Rank 0's record of the repetitions: the undisturbed ones decide, the others are kept in case
// too few were undisturbed.
struct Record {
  bool discard_preempted = true;
  std::vector<double> clean, all;

  void add(const std::vector<double>& slowest, int batch) {
    for (int i = 0; i < batch; ++i) {
      all.push_back(slowest[i]);
      if (!discard_preempted || slowest[batch + i] == 0) clean.push_back(slowest[i]);
    }
  }
  // The most recent max_reps repetitions when falling back to disturbed ones.
  std::vector<double> best(int max_reps) const {
    if (static_cast<int>(clean.size()) >= kFewestClean || clean.size() == all.size()) return clean;
    const std::size_t keep = std::min<std::size_t>(all.size(), max_reps);
    return {all.end() - static_cast<std::ptrdiff_t>(keep), all.end()};
  }
};

}  // namespace

PointResult measure_point(const Kernel& kernel, const Group& group, std::uint64_t bytes, int warmup,
                          const RepetitionLimits& limits, bool discard_preempted, Buffers& buffers) {
  Repeater repeat(kernel, group, bytes, buffers);
  for (int i = 0; i < warmup; ++i) repeat.once();

  Record record{discard_preempted, {}, {}};
  const double start = MPI_Wtime();
  int batch = limits.min_reps;
  while (batch > 0) {
    // One reduction per batch carries the times and then the disturbed flags.
    std::vector<double> mine(2 * batch), slowest(2 * batch);
    for (int i = 0; i < batch; ++i) {
      const Sample s = repeat.once();
      mine[i] = s.seconds;
      mine[batch + i] = s.disturbed ? 1 : 0;
    }
    MPI_Reduce(mine.data(), slowest.data(), 2 * batch, MPI_DOUBLE, MPI_MAX, kRoot, group.comm);
    if (group.rank == kRoot) {
      record.add(slowest, batch);
      batch = further_repetitions(record.clean, static_cast<int>(record.all.size()), since(start), limits);
    }
    MPI_Bcast(&batch, 1, MPI_INT, kRoot, group.comm);
  }
  PointResult result;
  if (group.rank == kRoot) {
    const auto samples = record.best(limits.max_reps);
    result.ci_halfwidth = median_ci_relative_halfwidth(samples);
    result.discarded = static_cast<int>(record.all.size() - record.clean.size());
    result.summary = summarize(samples);
  }
  return result;
}

}  // namespace augur::bench
