#include "cli/launch_failure.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cctype>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace augur::cli {
namespace {

constexpr std::string_view kInstead =
    "or predict at that count without running it (augur learn from runs at a few ranks, or augur sim "
    "--generate; docs/scale.md)";

// Ranks per hardware thread beyond which Open MPI 4.1's shutdown was seen to lose ranks (512
// ranks on 2, docs/scale.md).
constexpr int kCrowdedRanksPerCore = 16;

// Open MPI's and MPICH's wordings are matched without regard to case.
bool says(const std::string& text, std::initializer_list<std::string_view> phrases) {
  return std::any_of(phrases.begin(), phrases.end(), [&](std::string_view phrase) {
    return std::search(text.begin(), text.end(), phrase.begin(), phrase.end(), [](char a, char b) {
             return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
           }) != text.end();
  });
}

std::string ranks(const LaunchContext& c) {
  return c.processes > 0 ? fmt::format("the {} ranks", c.processes) : std::string("the ranks");
}

std::string open_files_limit() {
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) != 0 || files.rlim_cur == RLIM_INFINITY) return "";
  return fmt::format(" (augur gave it {}, ulimit -n)", static_cast<unsigned long long>(files.rlim_cur));
}

std::string no_slots(const LaunchContext& c) {
  if (c.oversubscribed)
    return fmt::format(
        "mpirun refused to start {}: not enough slots even with --oversubscribe, so a hostfile's max_slots or the "
        "resource manager's allocation caps them. Run fewer ranks, {}",
        ranks(c), kInstead);
  const std::string fix = c.processes > 0 ? "add --oversubscribe to augur run"
                                          : "add --oversubscribe to the mpirun command";
  return fmt::format(
      "mpirun refused to start {}: not enough slots, as Open MPI gives a host one per core (this one has {} "
      "hardware threads). To run them all here anyway, {}: each rank's compute is counted as its own CPU time, so "
      "sharing cores leaves the prediction unchanged",
      ranks(c), c.cores, fix);
}

}  // namespace

std::optional<std::string> launch_failure(const std::string& errors, const LaunchContext& c) {
  if (says(errors, {"not enough slots available"})) return no_slots(c);
  if (says(errors, {"limit on number of pipes", "limit exceeded on number of pipes",
                    "limit exceeded on number of network connections", "too many open files",
                    "pipe function call failed"}))
    return fmt::format(
        "the launcher ran out of file descriptors starting {}{}: it keeps about four for each rank. Raise the limit "
        "(ulimit -n), run fewer ranks, {}",
        ranks(c), open_files_limit(), kInstead);
  if (says(errors, {"limit exceeded on number of processes", "fork error", "fork failed",
                    "fork: resource temporarily unavailable"}))
    return fmt::format(
        "the launcher could not create the processes of {}: this user or host allows no more processes or threads "
        "(ulimit -u, /proc/sys/kernel/pid_max and threads-max). Run fewer ranks, {}",
        ranks(c), kInstead);
  if (says(errors, {"the shared-memory backing file", "shared memory btl initialization", "(bus error)"}))
    return fmt::format(
        "the shared memory of {} ran out, or a rank died of SIGBUS as one does when /dev/shm is full: MPI keeps a "
        "segment per rank there (Open MPI up to 4 MiB each; see df /dev/shm). Make /dev/shm larger (docker run "
        "--shm-size), run fewer ranks, {}",
        ranks(c), kInstead);
  if (says(errors, {"with pid 0 on"}) && says(errors, {"exiting improperly"})) {
    // Open MPI says the same of a rank that ends without MPI_Finalize: after the report, written
    // in MPI_Finalize, it is the race; before it, with many ranks per core, it may be.
    if (c.reported)
      return fmt::format(
          "mpirun then stopped the job, losing track of a rank of {} as it ended (\"PID 0 ... exiting "
          "improperly\"), a race in Open MPI 4's shutdown that many ranks sharing few cores make likely",
          ranks(c));
    if (c.processes > kCrowdedRanksPerCore * c.cores)
      return fmt::format(
          "mpirun stopped the job, saying a rank of {} ended without MPI_Finalize (\"PID 0 ... exiting "
          "improperly\"); with {} ranks per hardware thread that is as likely a race in Open MPI 4's shutdown: run "
          "again, run fewer ranks, {}",
          ranks(c), c.processes / c.cores, kInstead);
  }
  if (c.processes > c.cores && says(errors, {"signal 9 (killed)"}))
    return fmt::format(
        "a rank of {} was killed (signal 9); with more ranks than hardware threads on one host that is most often "
        "the kernel's out-of-memory killer (see dmesg). Run fewer ranks, {}",
        ranks(c), kInstead);
  return std::nullopt;
}

}  // namespace augur::cli
