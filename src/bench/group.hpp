#pragma once
// The process groups of the sweep: ranks 0…p−1 of MPI_COMM_WORLD for each group size p, so
// world rank 0 is rank 0 of every group and can write every result.
#include <map>
#include <vector>

#include <mpi.h>

namespace augur::bench {

struct Group {
  MPI_Comm comm = MPI_COMM_NULL;  // MPI_COMM_NULL on ranks outside the group
  int rank = -1;
  int size = 0;

  bool member() const { return comm != MPI_COMM_NULL; }
};

// Collective over MPI_COMM_WORLD. The groups' communicators return errors (kernel_errors.hpp).
std::map<int, Group> make_groups(const std::vector<int>& sizes);
void free_groups(std::map<int, Group>& groups);

// True when on some host more ranks run than it has processors. Collective over MPI_COMM_WORLD.
bool ranks_outnumber_processors();

// A barrier over MPI_COMM_WORLD that sleeps while it waits, so that ranks with nothing to do do
// not take processor time from the ranks being measured (it matters when oversubscribed).
void idle_barrier();

}  // namespace augur::bench
