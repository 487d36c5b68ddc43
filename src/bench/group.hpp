#pragma once
// The process groups of the sweep: ranks 0…p−1 of MPI_COMM_WORLD for each group size p, or on
// several nodes the first ranks_per_node ranks of each of the first `nodes` nodes for each
// placement of p (plan.hpp), so world rank 0 is rank 0 of every group and can write every result.
#include <map>
#include <vector>

#include <mpi.h>

#include "bench/nodes.hpp"

namespace augur::bench {

struct Group {
  MPI_Comm comm = MPI_COMM_NULL;  // MPI_COMM_NULL on ranks outside the group
  int rank = -1;
  int size = 0;

  bool member() const { return comm != MPI_COMM_NULL; }
};

// A group of the sweep: p ranks at a placement.
struct GroupKey {
  int p = 2;
  Placement placement{};

  auto operator<=>(const GroupKey&) const = default;
};

// Every group size at each of its placements on `here.machine`.
std::vector<GroupKey> group_keys(const std::vector<int>& sizes, const NodeMap& here);

// Collective over MPI_COMM_WORLD. The groups' communicators return errors (kernel_errors.hpp).
std::map<GroupKey, Group> make_groups(const std::vector<GroupKey>& keys, const NodeMap& here);
void free_groups(std::map<GroupKey, Group>& groups);

// True when on some host more ranks run than it has processors. Collective over MPI_COMM_WORLD.
bool ranks_outnumber_processors();

// A barrier over MPI_COMM_WORLD that sleeps while it waits, so that ranks with nothing to do do
// not take processor time from the ranks being measured (it matters when oversubscribed).
void idle_barrier();

}  // namespace augur::bench
