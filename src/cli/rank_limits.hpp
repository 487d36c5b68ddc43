#pragma once
// What this host gives a job of many ranks on one node, read before `augur run` launches it:
// file descriptors for the launcher, processes and threads, memory and /dev/shm. A count that
// cannot start is refused, saying which limit and what to do instead; one that strains a limit
// starts with a note.
#include <optional>
#include <string>
#include <vector>

namespace augur::cli {

struct HostLimits {
  long open_files = 0;       // RLIMIT_NOFILE's hard limit, to which augur may raise its own
  long tasks_free = 0;       // threads the kernel and RLIMIT_NPROC still allow this user
  double memory_free = 0;    // bytes, MemAvailable
  double shm_free = -1;      // bytes free in /dev/shm; negative when there is none
  int cores = 1;             // hardware threads
};

HostLimits read_host_limits();

struct RankCheck {
  std::optional<std::string> refusal;  // why the count cannot start here, and what to do
  std::vector<std::string> notes;      // limits it comes near
};

RankCheck check_ranks(int processes, const HostLimits& host);

// Raises this process's soft limit on open files (which the launcher inherits) to what
// `processes` ranks need, within the hard limit.
void raise_open_files_for(int processes);

}  // namespace augur::cli
