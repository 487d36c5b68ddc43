#include "bench/group.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "bench/kernel_errors.hpp"

namespace augur::bench {

std::vector<GroupKey> group_keys(const std::vector<int>& sizes, const NodeMap& here) {
  std::vector<GroupKey> keys;
  for (int p : sizes)
    for (const auto& where : placements(p, here.machine)) keys.push_back({p, where});
  return keys;
}

std::map<GroupKey, Group> make_groups(const std::vector<GroupKey>& keys, const NodeMap& here) {
  int world_rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  std::map<GroupKey, Group> groups;
  for (const auto& key : keys) {
    Group g;
    const auto& where = key.placement;
    const bool member = where.recorded() ? here.node < where.nodes && here.local < where.ranks_per_node
                                         : world_rank < key.p;
    const int colour = member ? 0 : MPI_UNDEFINED;
    MPI_Comm_split(MPI_COMM_WORLD, colour, world_rank, &g.comm);
    if (g.member()) {
      return_errors(g.comm);
      MPI_Comm_rank(g.comm, &g.rank);
      MPI_Comm_size(g.comm, &g.size);
    }
    groups[key] = g;
  }
  return groups;
}

void free_groups(std::map<GroupKey, Group>& groups) {
  for (auto& [p, g] : groups)
    if (g.member()) MPI_Comm_free(&g.comm);
  groups.clear();
}

namespace {

// The running kernel's identity: nodes emulated on one host (docs/emulated-nodes.md) are
// separate nodes to MPI but share one kernel and its processors. 0 where it cannot be read.
std::uint64_t kernel_identity() {
  std::ifstream file("/proc/sys/kernel/random/boot_id");
  std::string id;
  std::getline(file, id);
  return id.empty() ? 0 : std::hash<std::string>{}(id);
}

}  // namespace

bool ranks_outnumber_processors() {
  MPI_Comm host;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
  int ranks_here = 0;
  MPI_Comm_size(host, &ranks_here);
  MPI_Comm_free(&host);
  // Ranks on other nodes that run on this node's kernel count too.
  int world = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  const auto mine = static_cast<unsigned long long>(kernel_identity());
  std::vector<unsigned long long> kernels(world);
  MPI_Allgather(&mine, 1, MPI_UNSIGNED_LONG_LONG, kernels.data(), 1, MPI_UNSIGNED_LONG_LONG, MPI_COMM_WORLD);
  if (mine != 0) ranks_here = std::max(ranks_here, static_cast<int>(std::count(kernels.begin(), kernels.end(), mine)));
  int crowded = ranks_here > sysconf(_SC_NPROCESSORS_ONLN) ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &crowded, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  return crowded != 0;
}

void idle_barrier() {
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  int done = 0;
  MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  while (!done) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  }
}

}  // namespace augur::bench
