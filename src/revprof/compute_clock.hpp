#pragma once
// The program's compute time between MPI calls, at a fraction of the thread CPU clock's cost.
//
// The CPU clock (CLOCK_THREAD_CPUTIME_ID) excludes time the thread was preempted, which matters
// when ranks outnumber processors, but reading it is a system call: about 0.8 µs in a virtual
// machine, more than a small MPI call, so reading it around every call made a latency-bound
// program ten times slower. An interval of wall time shorter than a scheduler slice cannot hold
// a preemption, so for short intervals (program or MPI) the wall clock, read through the vDSO in
// a few nanoseconds, is taken as CPU time. The CPU clock is read only where a long interval
// begins or ends; the CPU time of a long compute interval is then the CPU time since the last
// reading minus the short intervals in between, which were counted at their wall time.
namespace augur::revprof {

class ComputeClock {
 public:
  using Reader = double (*)();

  struct Costs {
    double cpu_reading = 0;   // what one CPU-clock reading adds to the interval it falls in
    double wall_reading = 0;  // the same for the wall clock: about 25 ns through the vDSO, which a
                              // program making an MPI call every microsecond would show as compute
    double call_boundary = 0;  // the interposer's own work between a call's clock readings and the
                               // program: returning from one call and entering the next
  };
  // `short_interval`: wall seconds below which an interval is taken to be all CPU.
  ComputeClock(Reader wall, Reader cpu, Costs costs, double short_interval);

  const Costs& costs() const { return costs_; }

  void start();     // the program runs from here (MPI_Init returned)
  double enter();   // the program calls MPI: returns its compute seconds since it last left MPI
  void leave();     // the program continues after an MPI call
  // The program made a call that is part of its own time (it read the clock): returns its
  // compute seconds since it last left MPI with nothing taken off, the call's entry, work and
  // the clock reading included, and the program runs on from here. Successive calls tile the
  // rank's time (a long interval by the CPU clock), so a loop of them advances by what it costs
  // the host.
  double pass();
  // The call in progress is part of the program's time (a poll the model cannot price): returns
  // its seconds so far, its entry included, as compute (a long one by the CPU clock, so a
  // preemption inside it does not count), and the rest of the call is the interposer's again.
  double count_call();

  long cpu_readings() const { return cpu_readings_; }

 private:
  double read_cpu();
  // Seconds from wall time `since` to `now` as compute: the wall time of a short interval, the
  // CPU time of a long one.
  double count_since(double since, double now);

  Reader wall_, cpu_;
  Costs costs_;
  double short_interval_;
  double cpu_anchor_ = 0;    // the last CPU-clock reading
  double since_anchor_ = 0;  // wall seconds of short intervals since then, already accounted
  double left_at_ = 0;       // wall time the program last left MPI
  double entered_at_ = 0;    // wall time the program last entered MPI
  long cpu_readings_ = 0;
};

}  // namespace augur::revprof
