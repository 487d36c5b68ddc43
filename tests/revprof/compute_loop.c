/* A compute phase between barriers, measured or annotated, and one call the reverse profiler
 * does not model (a one-sided epoch of post, start, complete and wait), for the compute-accounting and reporting tests.
 * Usage: compute_loop ITERATIONS ANNOTATED_SECONDS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "augur/annotate.h"

int main(int argc, char** argv) {
  long iterations = argc > 1 ? atol(argv[1]) : 10000000;
  double annotated = argc > 2 ? atof(argv[2]) : 0.25;
  MPI_Init(&argc, &argv);
  MPI_Barrier(MPI_COMM_WORLD);
  volatile double x = 1.0;
  for (long i = 0; i < iterations; ++i) x = x * 1.0000001 + 1e-9;
  augur_compute(annotated);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win win;
  MPI_Win_create(NULL, 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Group world, others;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Group_excl(world, 1, &rank, &others);
  MPI_Win_post(others, 0, win);
  MPI_Win_start(others, 0, win);
  MPI_Win_complete(win);
  MPI_Win_wait(win);
  MPI_Group_free(&others);
  MPI_Group_free(&world);
  MPI_Win_free(&win);
  printf("x=%g\n", (double)x);
  MPI_Finalize();
  return 0;
}
