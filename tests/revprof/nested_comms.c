/* A communicator made out of a sub-communicator, as CP2K and pw.x make theirs: the lower half of
 * the ranks duplicates its half and then sends to the upper half, which receives before it
 * duplicates its own. Each duplication is collective over its half only, so a replay that waited
 * for the whole world there would never finish. Usage: nested_comms (an even number of ranks) */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  int rank, p, value = 0, sum = 0;
  MPI_Comm half, copy;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  const int lower = rank < p / 2;
  MPI_Comm_split(MPI_COMM_WORLD, lower, rank, &half);
  if (lower) {
    MPI_Comm_dup(half, &copy);
    MPI_Send(&rank, 1, MPI_INT, rank + p / 2, 0, MPI_COMM_WORLD);
  } else {
    MPI_Recv(&value, 1, MPI_INT, rank - p / 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Comm_dup(half, &copy);
  }
  MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, copy);
  if (rank == p - 1) printf("sum %d\n", sum);
  MPI_Comm_free(&copy);
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
