#include "revprof/compute_clock.hpp"

#include <algorithm>

namespace augur::revprof {

ComputeClock::ComputeClock(Reader wall, Reader cpu, Costs costs, double short_interval)
    : wall_(wall), cpu_(cpu), costs_(costs), short_interval_(short_interval) {}

double ComputeClock::read_cpu() {
  ++cpu_readings_;
  return cpu_();
}

void ComputeClock::start() {
  cpu_anchor_ = read_cpu();
  since_anchor_ = 0;
  left_at_ = wall_();
}

double ComputeClock::enter() {
  entered_at_ = wall_();
  const double interval = entered_at_ - left_at_;
  if (interval < short_interval_) {
    since_anchor_ += interval;
    return std::max(interval - costs_.wall_reading - costs_.call_boundary, 0.0);
  }
  const double cpu = read_cpu();
  const double spent = cpu - cpu_anchor_ - since_anchor_ - costs_.cpu_reading;
  cpu_anchor_ = cpu;
  since_anchor_ = 0;
  return std::max(spent, 0.0);
}

double ComputeClock::count_since(double since, double now) {
  const double interval = now - since;
  if (interval < short_interval_) {
    since_anchor_ += interval;
    return interval;
  }
  const double cpu = read_cpu();
  const double spent = cpu - cpu_anchor_ - since_anchor_;
  cpu_anchor_ = cpu;
  since_anchor_ = 0;
  return std::max(spent, 0.0);
}

double ComputeClock::pass() {
  const double now = wall_();
  const double spent = count_since(left_at_, now);
  entered_at_ = left_at_ = now;
  return spent;
}

double ComputeClock::count_call() {
  const double now = wall_();
  // enter() left the call's entry and its own reading out of the compute before it.
  const double spent = count_since(entered_at_, now) + costs_.wall_reading + costs_.call_boundary;
  entered_at_ = now;
  return spent;
}

void ComputeClock::leave() {
  left_at_ = wall_();
  const double call = left_at_ - entered_at_;
  // A long call may have been preempted (or slept in the library), so its wall time is not its
  // CPU time: start afresh from a reading. A short one polled all along.
  if (call < short_interval_) {
    since_anchor_ += call;
  } else {
    cpu_anchor_ = read_cpu();
    since_anchor_ = 0;
  }
}

}  // namespace augur::revprof
