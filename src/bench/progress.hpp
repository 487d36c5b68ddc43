#pragma once
// A one-line progress report with an estimate of the time left, rewritten in place on stderr.
#include <chrono>
#include <string>

namespace augur::bench {

class Progress {
 public:
  // `budget_seconds` caps the estimate (0 = no budget); `enabled` false makes every call a no-op.
  Progress(bool enabled, int total_points, double budget_seconds);

  void extend(int more_points) { total_ += more_points; }
  // Called after a point is finished (or found already measured when resuming).
  void advance(const std::string& label, bool measured);
  void finish(long discarded_repetitions);

 private:
  double elapsed() const;
  double seconds_left() const;

  bool enabled_;
  int total_;
  double budget_;
  int done_ = 0;
  int measured_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_print_{};
};

std::string format_duration(double seconds);  // "42s", "3m05s", "1h02m"

}  // namespace augur::bench
