#pragma once
// The CPU time of a rank whose compute may run on several threads.
//
// A rank's compute between two MPI calls takes, on a target with a core for each of its threads,
// as long as its busiest thread computed: an OpenMP region as long as its slowest thread, a
// thread pool's work as long as its busiest worker while the calling thread sleeps on a
// condition. The calling thread's CPU clock alone sees none of the workers' time, and the process
// clock adds the threads up as if one core ran them all. So each reading adds the largest CPU
// time any thread of the process spent since the previous reading.
//
// Reading every thread's clock costs a directory listing and a system call per thread, so while
// the other threads together compute no more than the calling thread (a single-threaded program,
// or the MPI library's own helper threads), the calling thread is the busiest and its clock is
// read alone, beside the process clock that tells. Once other threads have outworked it by a
// millisecond in all, or another thread calls MPI (MPI_THREAD_SERIALIZED), every thread is
// followed from then on; that first interval takes the other threads' time together, and so do
// threads that end between two readings.
#include <sys/types.h>

#include <unordered_map>

namespace augur::revprof {

class RankCpuClock {
 public:
  // Cumulative seconds: the first reading is 0.
  double read();
  bool follows_every_thread() const { return every_thread_; }

 private:
  // The busiest thread's CPU seconds since the last reading, given the process clock's now.
  double read_every_thread(double process_seconds);

  bool started_ = false;
  bool every_thread_ = false;
  double total_ = 0;
  double outworked_by_ = 0;  // the other threads' CPU time beyond the caller's, before following them
  double last_process_ = 0;
  double last_thread_ = 0;
  pid_t last_caller_ = 0;
  std::unordered_map<pid_t, double> last_by_thread_;
};

// The process's clock, for the shim's compute clock (compute_clock.hpp).
double rank_cpu_seconds();

}  // namespace augur::revprof
