#pragma once
// A wall clock read from the processor's time-stamp counter. The reverse profiler reads the wall
// clock twice per intercepted call (compute_clock.hpp); through the vDSO that is about 25 ns in
// this virtual machine, a tenth of the shim's whole cost per call, and the counter reads in a
// third of that. Only where the kernel reports the counter constant-rate and non-stop (the
// constant_tsc and nonstop_tsc flags) is it used; elsewhere the monotonic clock is.
namespace augur::revprof {

class CycleClock {
 public:
  // Calibrates the counter's rate against CLOCK_MONOTONIC over `calibration` seconds of wall
  // time (a preempted calibration is as good: both clocks run on). No-op where unusable.
  static void calibrate(double calibration = 2e-3);
  static bool usable();
  static double seconds();  // since an arbitrary origin; valid after calibrate() when usable()
};

}  // namespace augur::revprof
