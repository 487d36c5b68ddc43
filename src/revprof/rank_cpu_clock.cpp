#include "revprof/rank_cpu_clock.hpp"

#include <dirent.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

namespace augur::revprof {
namespace {

double seconds_of(clockid_t clock) {
  timespec ts{};
  if (clock_gettime(clock, &ts) != 0) return -1;  // the thread has ended
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Another thread's CPU clock by its kernel id, as glibc's pthread_getcpuclockid builds it for a
// pthread_t: the shim has no pthread_t for the threads a program creates, only /proc's ids.
clockid_t thread_clock(pid_t tid) { return static_cast<clockid_t>((~static_cast<unsigned>(tid) << 3) | 6u); }

// Other threads count as outworking the caller once they have done so by this much CPU time in
// all, so that the MPI library's helper threads, waking now and then for microseconds, do not
// make every reading a listing of threads.
constexpr double kOutworkedBy = 1e-3;

}  // namespace

double RankCpuClock::read_every_thread(double process_seconds) {
  std::unordered_map<pid_t, double> now;
  double busiest = 0, live = 0;
  if (DIR* tasks = opendir("/proc/self/task")) {
    while (const dirent* entry = readdir(tasks)) {
      const pid_t tid = static_cast<pid_t>(std::atoi(entry->d_name));
      if (tid <= 0) continue;
      const double cpu = seconds_of(thread_clock(tid));
      if (cpu < 0) continue;
      now[tid] = cpu;
      const auto last = last_by_thread_.find(tid);
      const double spent = cpu - (last == last_by_thread_.end() ? 0.0 : last->second);
      busiest = std::max(busiest, spent);
      live += spent;
    }
    closedir(tasks);
  }
  last_by_thread_ = std::move(now);
  // Threads that ended since the last reading are gone from the listing; the process clock still
  // holds their time, which counts as one thread's.
  const double ended = process_seconds - last_process_ - live;
  return std::max(busiest, ended);
}

double RankCpuClock::read() {
  const double process = seconds_of(CLOCK_PROCESS_CPUTIME_ID);
  const double thread = seconds_of(CLOCK_THREAD_CPUTIME_ID);
  const pid_t caller = gettid();
  if (!started_) {
    started_ = true;
  } else if (every_thread_) {
    total_ += read_every_thread(process);
  } else {
    const double mine = thread - last_thread_, others = (process - last_process_) - mine;
    outworked_by_ += std::max(others - mine, 0.0);
    if (caller == last_caller_ && outworked_by_ <= kOutworkedBy) {
      total_ += mine;
    } else {
      every_thread_ = true;
      total_ += caller == last_caller_ ? std::max(mine, others) : process - last_process_;
      read_every_thread(process);
    }
  }
  last_process_ = process;
  last_thread_ = thread;
  last_caller_ = caller;
  return total_;
}

double rank_cpu_seconds() {
  // Never destroyed, as the runtime (runtime.cpp): MPI may call in from atexit handlers.
  static auto* clock = new RankCpuClock();
  return clock->read();
}

}  // namespace augur::revprof
