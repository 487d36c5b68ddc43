#include "bench/group.hpp"

#include <unistd.h>

#include <chrono>
#include <thread>

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

bool ranks_outnumber_processors() {
  MPI_Comm host;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
  int ranks_here = 0;
  MPI_Comm_size(host, &ranks_here);
  MPI_Comm_free(&host);
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
