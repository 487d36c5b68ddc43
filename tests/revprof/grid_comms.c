/* Collectives on the rows and the columns of the process grid MPI_Dims_create makes, each
 * communicator made by MPI_Comm_split (rows by rank / C, columns by rank mod C).
 * Usage: grid_comms ITERATIONS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  const int iterations = argc > 1 ? atoi(argv[1]) : 10;
  int rank, p, dims[2] = {0, 0}, i;
  double value[64] = {0}, sum[64];
  MPI_Comm row, column;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Dims_create(p, 2, dims);
  MPI_Comm_split(MPI_COMM_WORLD, rank / dims[1], rank, &row);
  MPI_Comm_split(MPI_COMM_WORLD, rank % dims[1], rank, &column);
  value[0] = rank;
  for (i = 0; i < iterations; ++i) {
    MPI_Allreduce(value, sum, 64, MPI_DOUBLE, MPI_SUM, row);
    MPI_Bcast(sum, 8, MPI_DOUBLE, 0, column);
  }
  if (rank == 0) printf("sum %g\n", sum[0]);
  MPI_Comm_free(&row);
  MPI_Comm_free(&column);
  MPI_Finalize();
  return 0;
}
