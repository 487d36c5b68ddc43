/* sor: over-relaxation for A x = b with a dense, diagonally dominant n x n matrix.
 *
 * usage: sor [n=500] [iters=50]
 *
 * Rows of A are split into blocks. Every iteration each process relaxes its rows against the
 * whole vector of the previous iteration, MPI_Allgatherv gives everyone the new vector, and
 * MPI_Allreduce (max) gives the largest change, the residual. The update uses only the previous
 * vector (Jacobi over-relaxation) so the result is the same however the rows are split; the
 * residual is a maximum because a sum would depend on the order of reduction.
 */
#include <math.h>

#include "example_common.h"

#define OMEGA 1.2

int main(int argc, char **argv) {
  int rank, p;
  start_mpi(&argc, &argv, &rank, &p);

  long n = arg_or(argc, argv, 1, 500);
  long iters = arg_or(argc, argv, 2, 50);
  if (n < 0 || iters < 0 || n > 20000)
    return usage(rank, "sor [n=500] [iters=50]");

  double t0 = start_clock();

  long lo = block_start(n, p, rank), rows = block_size(n, p, rank);
  int *counts = alloc((size_t)p, sizeof *counts), *displs = alloc((size_t)p, sizeof *displs);
  block_counts(n, p, 1, counts, displs);
  /* Off-diagonal entries in [0, 1) and a diagonal of n: every row is strictly dominant, so the
   * iteration converges. */
  double *a = alloc((size_t)rows * (size_t)n, sizeof *a);
  double *b = alloc((size_t)rows, sizeof *b);
  for (long i = 0; i < rows; ++i) {
    for (long j = 0; j < n; ++j)
      a[i * n + j] = (lo + i == j) ? (double)n : uniform((uint64_t)((lo + i) * n + j));
    b[i] = (double)n * (1.0 + uniform((uint64_t)(n * n + lo + i)));
  }
  double *x = alloc((size_t)n, sizeof *x);
  double *mine = alloc((size_t)rows, sizeof *mine);
  double resid = 0.0;

  for (long it = 0; it < iters; ++it) {
    double change = 0.0;
    for (long i = 0; i < rows; ++i) {
      const double *ai = a + i * n;
      long gi = lo + i;
      double s = 0.0;
      for (long j = 0; j < n; ++j)
        if (j != gi) s += ai[j] * x[j];
      double xi = (1.0 - OMEGA) * x[gi] + OMEGA * (b[i] - s) / ai[gi];
      if (fabs(xi - x[gi]) > change) change = fabs(xi - x[gi]);
      mine[i] = xi;
    }
    MPI_Allgatherv(mine, counts[rank], MPI_DOUBLE, x, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Allreduce(&change, &resid, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  }

  uint64_t checksum = vector_checksum(x, n); /* every process holds the whole vector */

  report("sor", t0, checksum, "n=%ld iters=%ld resid=%.3e", n, iters, resid);
  free(counts);
  free(displs);
  free(a);
  free(b);
  free(x);
  free(mine);
  MPI_Finalize();
  return 0;
}
