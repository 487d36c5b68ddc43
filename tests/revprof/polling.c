/* A receiver that polls: rank 0 tests its pending receive POLLS times and probes POLLS times for
 * a message no one sends before it lets rank 1 send, so every one of those polls finds nothing.
 * Usage: polling POLLS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  const int polls = argc > 1 ? atoi(argv[1]) : 1000;
  int rank, value = 0, flag = 0, i;
  MPI_Request request;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_Irecv(&value, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &request);
    for (i = 0; i < polls; ++i) MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
    for (i = 0; i < polls; ++i) MPI_Iprobe(1, 3, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    MPI_Send(&flag, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    printf("received %d\n", value);
  } else if (rank == 1) {
    MPI_Recv(&flag, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    value = 42;
    MPI_Send(&value, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
