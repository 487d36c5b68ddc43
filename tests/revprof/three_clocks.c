/* Communication only, so that every clock of the reverse profiler is a sum of the model's times:
 * collectives that the ranks enter at different times (rank 1 first spends barriers on
 * MPI_COMM_SELF), then a send that waits for a receiver that posts late (after more of them), so
 * the sender's end depends on the receiver's post time. Rank 0 prints its MPI_Wtime at the end.
 * Usage: three_clocks BYTES */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void delay_rank_one(int rank, int barriers) {
  if (rank != 1) return;
  for (int i = 0; i < barriers; ++i) MPI_Barrier(MPI_COMM_SELF);
}

int main(int argc, char** argv) {
  int bytes = argc > 1 ? atoi(argv[1]) : 4096;
  char* buf = calloc(bytes > 0 ? bytes : 1, 1);
  int rank = 0, size = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double value = rank, sum = 0;
  delay_rank_one(rank, 2);
  MPI_Bcast(buf, bytes, MPI_CHAR, size - 1, MPI_COMM_WORLD);
  MPI_Reduce(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Allreduce(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  delay_rank_one(rank, 3);
  if (rank == 0 && size > 1) MPI_Ssend(buf, bytes, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
  if (rank == 1) MPI_Recv(buf, bytes, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  const double wtime = MPI_Wtime();
  if (rank == 0) printf("wtime=%.17g sum=%g\n", wtime, sum);
  free(buf);
  MPI_Finalize();
  return 0;
}
