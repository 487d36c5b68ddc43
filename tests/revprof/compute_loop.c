/* A compute phase between barriers, measured or annotated, and one call the reverse profiler
 * does not model (MPI_Comm_idup), for the compute-accounting and reporting tests.
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
  MPI_Comm copy;
  MPI_Request made;
  MPI_Comm_idup(MPI_COMM_WORLD, &copy, &made);
  MPI_Wait(&made, MPI_STATUS_IGNORE);
  MPI_Comm_free(&copy);
  printf("x=%g\n", (double)x);
  MPI_Finalize();
  return 0;
}
