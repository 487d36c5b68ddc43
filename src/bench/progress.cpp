#include "bench/progress.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace augur::bench {
namespace {

constexpr auto kReprintInterval = std::chrono::milliseconds(250);

}  // namespace

std::string format_duration(double seconds) {
  const long s = std::lround(std::max(0.0, seconds));
  char text[32];
  if (s < 60) std::snprintf(text, sizeof text, "%lds", s);
  else if (s < 3600) std::snprintf(text, sizeof text, "%ldm%02lds", s / 60, s % 60);
  else std::snprintf(text, sizeof text, "%ldh%02ldm", s / 3600, s / 60 % 60);
  return text;
}

Progress::Progress(bool enabled, int total_points, double budget_seconds)
    : enabled_(enabled), total_(total_points), budget_(budget_seconds) {}

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

void Progress::advance(const std::string& label, bool measured) {
  ++done_;
  if (measured) ++measured_;
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_print_ < kReprintInterval && done_ < total_) return;
  last_print_ = now;
  std::fprintf(stderr, "\r\033[K[%d/%d] %s  elapsed %s, about %s left", done_, total_, label.c_str(),
               format_duration(elapsed()).c_str(), format_duration(seconds_left()).c_str());
  std::fflush(stderr);
}

void Progress::finish(long discarded_repetitions) {
  if (!enabled_) return;
  std::fprintf(stderr, "\r\033[K%d points in %s; %ld repetitions discarded because a process was preempted\n",
               done_, format_duration(elapsed()).c_str(), discarded_repetitions);
  std::fflush(stderr);
}

}  // namespace augur::bench
