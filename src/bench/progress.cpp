#include "bench/progress.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace augur::bench {
namespace {

constexpr auto kReprintInterval = std::chrono::milliseconds(250);

}  // namespace

Progress::Progress(bool enabled, int total_points, double budget_seconds, RunClock run)
    : enabled_(enabled), total_(total_points), budget_(budget_seconds), run_(run) {}

double Progress::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

// Points measured so far set the pace; the budget, when there is one, bounds the estimate
// because the sweep shortens its points to keep to it.
double Progress::seconds_left() const {
  const int left = total_ - done_;
  double estimate = measured_ > 0 ? elapsed() / measured_ * left : 0;
  if (budget_ > 0) estimate = std::min(estimate, std::max(0.0, budget_ - elapsed()));
  return estimate;
}

// "run 1m10s of the 3m00s budget, about 1m40s left": the run's expected end, moved on by this
// pass when it runs later than expected.
std::string Progress::run_text() const {
  const double now = run_.elapsed + elapsed();
  const double left = std::max(run_.estimate - now, seconds_left());
  return "run " + format_duration(now) + " of the " + format_duration(run_.budget) + " budget, about " +
         format_duration(left) + " left";
}

void Progress::advance(const std::string& label, bool measured) {
  ++done_;
  if (measured) ++measured_;
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_print_ < kReprintInterval && done_ < total_) return;
  last_print_ = now;
  const std::string time = run_.budget > 0 ? run_text()
                                           : "elapsed " + format_duration(elapsed()) + ", about " +
                                                 format_duration(seconds_left()) + " left";
  std::fprintf(stderr, "\r\033[K[%d/%d] %s  %s", done_, total_, label.c_str(), time.c_str());
  std::fflush(stderr);
}

void Progress::stopped(int left) {
  if (!enabled_ || left <= 0) return;
  std::fprintf(stderr, "\r\033[Kaugur-bench-mpi: the time of this pass is up; %d of its points not measured\n", left);
}

void Progress::finish(long discarded_repetitions) {
  if (!enabled_) return;
  std::fprintf(stderr, "\r\033[K%d points in %s; %ld repetitions discarded because a process was preempted\n",
               done_, format_duration(elapsed()).c_str(), discarded_repetitions);
  std::fflush(stderr);
}

}  // namespace augur::bench
