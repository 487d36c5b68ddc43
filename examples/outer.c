/* outer: the distance matrix of n points, distributed by rows.
 *
 * usage: outer [n=1000] [reps=1]
 *
 * Each process makes its block of the points, MPI_Allgatherv gives every process all of them,
 * each computes its rows of the n x n distance matrix and the distance of its points from the
 * origin, MPI_Allreduce finds the largest distance, and the diagonal is set to n times it.
 * reps repeats the whole computation so small n can be made communication-bound.
 */
#include <math.h>

#include "example_common.h"

int main(int argc, char **argv) {
  int rank, p;
  start_mpi(&argc, &argv, &rank, &p);

  long n = arg_or(argc, argv, 1, 1000);
  long reps = arg_or(argc, argv, 2, 1);
  if (n < 0 || reps < 0 || n > 20000)
    return usage(rank, "outer [n=1000] [reps=1]");

  double t0 = start_clock();

  long lo = block_start(n, p, rank), rows = block_size(n, p, rank);
  int *counts = alloc((size_t)p, sizeof *counts), *displs = alloc((size_t)p, sizeof *displs);
  block_counts(n, p, 2, counts, displs); /* two doubles per point */
  double *mine = alloc((size_t)(2 * rows), sizeof *mine);
  double *pts = alloc((size_t)(2 * n), sizeof *pts);
  double *matrix = alloc((size_t)rows * (size_t)n, sizeof *matrix);
  double *vec = alloc((size_t)rows, sizeof *vec);
  double dmax = 0.0;

  for (long rep = 0; rep < reps; ++rep) {
    for (long i = 0; i < rows; ++i) { /* points uniform in [0, 1000)^2 */
      mine[2 * i] = uniform((uint64_t)(2 * (lo + i))) * 1000.0;
      mine[2 * i + 1] = uniform((uint64_t)(2 * (lo + i) + 1)) * 1000.0;
    }
    MPI_Allgatherv(mine, counts[rank], MPI_DOUBLE, pts, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);

    double local_max = 0.0;
    for (long i = 0; i < rows; ++i) {
      double xi = pts[2 * (lo + i)], yi = pts[2 * (lo + i) + 1];
      double *row = matrix + i * n;
      for (long j = 0; j < n; ++j) {
        double dx = xi - pts[2 * j], dy = yi - pts[2 * j + 1];
        row[j] = sqrt(dx * dx + dy * dy);
        if (row[j] > local_max) local_max = row[j];
      }
      vec[i] = sqrt(xi * xi + yi * yi);
    }
    /* The maximum is exact, so it does not depend on the order of reduction. */
    MPI_Allreduce(&local_max, &dmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    for (long i = 0; i < rows; ++i) matrix[i * n + lo + i] = (double)n * dmax;
  }

  uint64_t local_sum = 0;
  for (long i = 0; i < rows; ++i) {
    double s = 0.0;
    for (long j = 0; j < n; ++j) s += matrix[i * n + j];
    local_sum += mix64((uint64_t)(lo + i)) * bits(s) + mix64((uint64_t)(n + lo + i)) * bits(vec[i]);
  }
  uint64_t checksum = checksum_to_root(local_sum, MPI_COMM_WORLD);

  report("outer", t0, checksum, "n=%ld reps=%ld max=%.6f", n, reps, dmax);
  free(counts);
  free(displs);
  free(mine);
  free(pts);
  free(matrix);
  free(vec);
  MPI_Finalize();
  return 0;
}
