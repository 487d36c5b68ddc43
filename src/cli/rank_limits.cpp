#include "cli/rank_limits.hpp"

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <thread>

#include <fmt/format.h>

#include "model/units.hpp"

namespace augur::cli {
namespace fs = std::filesystem;
namespace {

// What one rank costs on its host, measured with Open MPI 4.1 (docs/scale.md): mpirun holds
// about four descriptors per rank it starts (the rank's standard output and error, its PMIx
// connection, and a pipe while it starts) besides about 30 of its own; each rank runs three
// threads (its own and two progress threads), and its MPI library and augur's shim take about
// 4 MiB of memory before the program's own. Open MPI's shared-memory transport maps a 4 MiB
// segment per rank in /dev/shm, filled as the rank receives.
constexpr long kFilesPerRank = 4;
constexpr long kLauncherFiles = 64;
constexpr long kTasksPerRank = 3;
constexpr long kLauncherTasks = 16;
constexpr double kMemoryPerRank = 4.0 * 1024 * 1024;
constexpr double kShmPerRank = 4.0 * 1024 * 1024;
constexpr int kRanksPerCoreNoted = 64;

constexpr const char* kInstead =
    "to predict at that count without running it, learn the program from runs at a few ranks "
    "(augur learn, then augur sim --app APP.json --ranks N) or simulate a generated program "
    "(augur sim --generate); docs/scale.md compares the three ways";

long files_needed(int processes) { return kLauncherFiles + kFilesPerRank * processes; }

long read_number(const fs::path& file) {
  std::ifstream in(file);
  long value = std::numeric_limits<long>::max();
  in >> value;
  return in ? value : std::numeric_limits<long>::max();
}

// Threads of every process, and of those whose owner is `uid`.
std::pair<long, long> tasks_running(uid_t uid) {
  long all = 0, mine = 0;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator("/proc", error)) {
    const auto name = entry.path().filename().string();
    if (name.empty() || !std::all_of(name.begin(), name.end(), ::isdigit)) continue;
    std::ifstream status(entry.path() / "status");
    std::string line;
    long threads = 0;
    while (std::getline(status, line))
      if (line.starts_with("Threads:")) threads = std::atol(line.c_str() + 8);
    struct stat owner {};
    all += threads;
    if (::stat(entry.path().c_str(), &owner) == 0 && owner.st_uid == uid) mine += threads;
  }
  return {all, mine};
}

long tasks_free() {
  const long kernel = std::min(read_number("/proc/sys/kernel/pid_max"), read_number("/proc/sys/kernel/threads-max"));
  rlimit user{};
  const bool user_limited =
      ::geteuid() != 0 && ::getrlimit(RLIMIT_NPROC, &user) == 0 && user.rlim_cur != RLIM_INFINITY;
  const auto [all, mine] = tasks_running(::getuid());
  long free = kernel - all;
  if (user_limited) free = std::min(free, static_cast<long>(user.rlim_cur) - mine);
  return free;
}

double memory_available() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  double kib = 0;
  while (meminfo >> key >> kib) {
    if (key == "MemAvailable:") return kib * 1024;
    meminfo.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return std::numeric_limits<double>::infinity();
}

std::string count(long n) { return fmt::format("{}", n); }

}  // namespace

HostLimits read_host_limits() {
  HostLimits host;
  rlimit files{};
  host.open_files = ::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_max != RLIM_INFINITY
                        ? static_cast<long>(files.rlim_max)
                        : std::numeric_limits<long>::max();
  host.tasks_free = tasks_free();
  host.memory_free = memory_available();
  struct statvfs shm {};
  if (::statvfs("/dev/shm", &shm) == 0) host.shm_free = static_cast<double>(shm.f_bavail) * shm.f_frsize;
  host.cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return host;
}

RankCheck check_ranks(int processes, const HostLimits& host) {
  RankCheck check;
  const long p = processes;
  if (files_needed(processes) > host.open_files) {
    check.refusal = fmt::format(
        "-np {} needs about {} open files in mpirun ({} for each rank it starts), and this shell allows {} "
        "(ulimit -Hn): raise the limit (ulimit -n {}, or nofile in /etc/security/limits.conf), run fewer ranks, or, {}",
        p, count(files_needed(processes)), kFilesPerRank, count(host.open_files), count(files_needed(processes)),
        kInstead);
  } else if (kLauncherTasks + kTasksPerRank * p > host.tasks_free) {
    check.refusal = fmt::format(
        "-np {} needs about {} more processes and threads ({} per rank), and this host lets this user start {} more "
        "(ulimit -u, /proc/sys/kernel/pid_max and threads-max): run fewer ranks, or, {}",
        p, count(kLauncherTasks + kTasksPerRank * p), kTasksPerRank, count(std::max(0L, host.tasks_free)), kInstead);
  } else if (kMemoryPerRank * static_cast<double>(p) > host.memory_free) {
    check.refusal = fmt::format(
        "-np {} needs at least {} of memory for MPI alone (about {} per rank, before the program's own), and {} is "
        "available: run fewer ranks, or, {}",
        p, model::format_bytes(kMemoryPerRank * static_cast<double>(p)), model::format_bytes(kMemoryPerRank),
        model::format_bytes(host.memory_free), kInstead);
  }
  if (check.refusal) return check;
  if (2 * kMemoryPerRank * static_cast<double>(p) > host.memory_free)
    check.notes.push_back(fmt::format(
        "{} ranks take at least {} of memory for MPI alone, and {} is available; the program's own memory comes on top",
        p, model::format_bytes(kMemoryPerRank * static_cast<double>(p)), model::format_bytes(host.memory_free)));
  if (host.shm_free >= 0 && kShmPerRank * static_cast<double>(p) > host.shm_free)
    check.notes.push_back(fmt::format(
        "/dev/shm has {} free, and MPI's shared-memory transport may fill up to {} per rank ({} for {} ranks); a "
        "rank that finds it full dies of SIGBUS: if the run fails so, make /dev/shm larger (docker run --shm-size)",
        model::format_bytes(host.shm_free), model::format_bytes(kShmPerRank),
        model::format_bytes(kShmPerRank * static_cast<double>(p)), p));
  if (p > kRanksPerCoreNoted * static_cast<long>(host.cores))
    check.notes.push_back(fmt::format(
        "{} ranks take turns on {} hardware threads, so starting them and every collective take long (docs/scale.md "
        "gives measured times); the prediction does not change, as each rank's compute is its own CPU time",
        p, host.cores));
  return check;
}

void raise_open_files_for(int processes) {
  rlimit files{};
  if (::getrlimit(RLIMIT_NOFILE, &files) != 0) return;
  const auto needed = static_cast<rlim_t>(files_needed(processes));
  if (files.rlim_cur == RLIM_INFINITY || files.rlim_cur >= needed) return;
  files.rlim_cur = files.rlim_max == RLIM_INFINITY ? needed : std::min(needed, files.rlim_max);
  ::setrlimit(RLIMIT_NOFILE, &files);
}

}  // namespace augur::cli
