/* MPI calls with nothing between them: collectives with and without a root, v-variants and a
 * neighbour exchange, for the test that the interposer's own work is not counted as compute.
 * Usage: back_to_back ITERATIONS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { kMaxRanks = 8, kDoubles = 4 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int iterations = argc > 1 ? atoi(argv[1]) : 10000;
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > kMaxRanks) MPI_Abort(MPI_COMM_WORLD, 2);
  double mine[kDoubles] = {rank, rank, rank, rank}, all[kMaxRanks * kDoubles], sum = 0, in = 0;
  int counts[kMaxRanks], displs[kMaxRanks];
  for (int i = 0; i < size; ++i) counts[i] = kDoubles, displs[i] = i * kDoubles;
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (int i = 0; i < iterations; ++i) {
    MPI_Allgatherv(mine, kDoubles, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Allreduce(&mine[0], &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Gather(mine, kDoubles, MPI_DOUBLE, all, kDoubles, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Request requests[2];
    MPI_Irecv(&in, 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &requests[0]);
    MPI_Isend(&mine[0], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &requests[1]);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
  }
  printf("sum=%g in=%g\n", sum, in);
  MPI_Finalize();
  return 0;
}
