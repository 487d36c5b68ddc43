#include "bench/group.hpp"

#include <unistd.h>

#include <chrono>
#include <thread>

#include "bench/kernel_errors.hpp"

namespace augur::bench {

std::map<int, Group> make_groups(const std::vector<int>& sizes) {
  int world_rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  std::map<int, Group> groups;
  for (int p : sizes) {
    Group g;
    const int colour = world_rank < p ? 0 : MPI_UNDEFINED;
    MPI_Comm_split(MPI_COMM_WORLD, colour, world_rank, &g.comm);
    if (g.member()) {
      return_errors(g.comm);
      MPI_Comm_rank(g.comm, &g.rank);
      MPI_Comm_size(g.comm, &g.size);
    }
    groups[p] = g;
  }
  return groups;
}

void free_groups(std::map<int, Group>& groups) {
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
