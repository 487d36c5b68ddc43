#include "bench/provenance.hpp"

#include <mpi.h>
#include <sched.h>

#include <chrono>
#include <cstring>
#include <ctime>
#include <fstream>
#include <set>
#include <vector>

#include "bench/mpi_t_variables.hpp"

#ifndef AUGUR_VERSION
#define AUGUR_VERSION "unknown"
#endif

namespace augur::bench {
namespace {

std::string trim(std::string s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  const auto last = s.find_last_not_of(" \t\r\n");
  return s.substr(first, last - first + 1);
}

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string library_version_text() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(text, &length);
  return trim(std::string(text, strnlen(text, length)));  // some libraries count the final NUL
}

struct RankHost {
  std::string host;
  int cpu;
};

// Every rank's host and the CPU it is running on, gathered on rank 0.
std::string synchronisation_text(Sync sync) {
  if (sync == Sync::barrier) return "MPI_Barrier before every repetition; the timed part starts as each rank leaves it";
  return "MPI_Barrier, then every rank waits for an agreed instant (rank 0's clock, offsets from the fastest of "
         "12 ping-pongs per rank, estimated afresh for every point); repetitions with a late rank are dropped";
}

std::vector<RankHost> gather_placement() {
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  int cpu = sched_getcpu();
  int world = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<char> names(rank == 0 ? std::size_t(world) * MPI_MAX_PROCESSOR_NAME : 0);
  std::vector<int> cpus(rank == 0 ? world : 0);
  MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0,
             MPI_COMM_WORLD);
  MPI_Gather(&cpu, 1, MPI_INT, cpus.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<RankHost> placement;
  for (int r = 0; r < static_cast<int>(cpus.size()); ++r)
    placement.push_back({std::string(names.data() + std::size_t(r) * MPI_MAX_PROCESSOR_NAME), cpus[r]});
  return placement;
}

std::string short_host(const std::string& host) { return host.substr(0, host.find('.')); }

nlohmann::json describe_clock() {
  int* global = nullptr;
  int flag = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &global, &flag);
  return {{"wtick", MPI_Wtick()}, {"wtime_is_global", flag && global && *global}};
}

}  // namespace

LibraryName parse_library_version(const std::string& text) {
  const std::string open_mpi = "Open MPI v";
  if (text.rfind(open_mpi, 0) == 0) {
    const auto end = text.find_first_of(", \n", open_mpi.size());
    return {"Open MPI", text.substr(open_mpi.size(), end - open_mpi.size())};
  }
  const std::string mpich = "MPICH Version:";
  if (const auto at = text.find(mpich); at != std::string::npos) {
    const auto end = text.find('\n', at);
    return {"MPICH", trim(text.substr(at + mpich.size(), end - at - mpich.size()))};
  }
  return {trim(text.substr(0, text.find('\n'))), ""};
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) return trim(line.substr(line.find(':') + 1));
  return "";
}

nlohmann::json run_header(const SweepSettings& settings, const std::string& machine_name) {
  const auto placement = gather_placement();
  const auto cvars = protocol_control_variables();
  int rank = 0, world = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  if (rank != 0) return {};

  const std::string version_text = library_version_text();
  const auto library = parse_library_version(version_text);
  std::set<std::string> hosts;
  nlohmann::json ranks = nlohmann::json::array();
  for (const auto& [host, cpu] : placement) {
    hosts.insert(host);
    ranks.push_back({{"host", host}, {"cpu", cpu}});
  }
  int standard = 0, subversion = 0;
  MPI_Get_version(&standard, &subversion);
  const std::string cpu = cpu_model();

  const std::string name = machine_name.empty() ? short_host(placement.front().host) : machine_name;
  const std::string description = (cpu.empty() ? std::string("unknown CPU") : cpu) + ", " +
                                  std::to_string(hosts.size()) + (hosts.size() == 1 ? " host, " : " hosts, ") +
                                  std::to_string(world) + " processes, " + library.library + " " + library.version;
  nlohmann::json details = {
      {"sweep", to_json(settings)},
      {"synchronisation", synchronisation_text(settings.sync)},
      {"timing", "largest over the group of each rank's MPI_Wtime difference around the timed part"},
      {"mpi_library_version", version_text},
      {"mpi_standard", std::to_string(standard) + "." + std::to_string(subversion)},
      {"cpu_model", cpu},
      {"hosts", std::vector<std::string>(hosts.begin(), hosts.end())},
      {"placement", ranks},
      {"clock", describe_clock()},
      {"mpi_t", cvars},
  };
  return {
      {"machine", {{"name", name}, {"description", description}}},
      {"provenance",
       {{"source", "augur bench"},
        {"mpi_library", library.library},
        {"mpi_version", library.version},
        {"date", utc_now()},
        {"measured_by", std::string("augur-bench-mpi ") + AUGUR_VERSION},
        {"settings", details}}},
      {"settings", to_json(settings)},
  };
}

}  // namespace augur::bench
