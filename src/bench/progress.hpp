#pragma once
// A one-line progress report with an estimate of the time left, rewritten in place on stderr.
#include <chrono>
#include <string>

#include "model/units.hpp"

namespace augur::bench {

// The whole run's clock as `augur bench` sees it when it starts a pass: how long the run has
// taken, what it expects to take and its budget, in seconds (0: not known). The line then shows
// the run's time against its budget, not only this pass's.
struct RunClock {
  double elapsed = 0, estimate = 0, budget = 0;
};

class Progress {
 public:
  // `budget_seconds` caps the estimate (0 = no budget); `enabled` false makes every call a no-op.
  Progress(bool enabled, int total_points, double budget_seconds, RunClock run = {});

  void extend(int more_points) { total_ += more_points; }
  // Called after a point is finished (or found already measured when resuming).
  void advance(const std::string& label, bool measured);
  // The pass stopped at its time limit (--stop-after) with `left` points not measured.
  void stopped(int left);
  void finish(long discarded_repetitions);

 private:
  double elapsed() const;
  double seconds_left() const;
  std::string run_text() const;

  bool enabled_;
  int total_;
  double budget_;
  RunClock run_;
  int done_ = 0;
  int measured_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_print_{};
};

using model::format_duration;

}  // namespace augur::bench
