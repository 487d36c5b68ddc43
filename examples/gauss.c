/* gauss: Gaussian elimination and back substitution for A x = b, rows dealt cyclically.
 *
 * usage: gauss [n=256] [reps=1]
 *
 * Row i belongs to process i mod p, which keeps every process busy until the last rows. For
 * each row k the owner broadcasts the pivot row and every process eliminates column k from its
 * rows below k. Back substitution goes column by column: the owner of row k solves x[k] and
 * broadcasts it, and every process subtracts its contribution from its rows above k. A is
 * diagonally dominant, so elimination needs no pivot search and the only message per row is
 * the broadcast. reps solves the system again (rebuilding A) so small n can be made
 * communication-bound. The run ends with the largest residual |A x - b| over all rows.
 */
#include <math.h>
#include <string.h>

#include "example_common.h"

/* Row i of the augmented matrix [A | b]: off-diagonal entries in [0, 1), a diagonal of n. */
static void make_row(long n, long i, double *row) {
  for (long j = 0; j < n; ++j) row[j] = (i == j) ? (double)n : uniform((uint64_t)(i * n + j));
  row[n] = (double)n * (1.0 + uniform((uint64_t)(n * n + i)));
}

int main(int argc, char **argv) {
  int rank, p;
  start_mpi(&argc, &argv, &rank, &p);

  long n = arg_or(argc, argv, 1, 256);
  long reps = arg_or(argc, argv, 2, 1);
  if (n < 0 || reps < 0 || n > 20000)
    return usage(rank, "gauss [n=256] [reps=1]");

  double t0 = start_clock();

  long rows = (n - rank + p - 1) / p; /* local row li is global row rank + li * p */
  long w = n + 1;
  double *a = alloc((size_t)rows * (size_t)w, sizeof *a);
  double *pivot = alloc((size_t)w, sizeof *pivot);
  double *x = alloc((size_t)n, sizeof *x);

  for (long rep = 0; rep < reps; ++rep) {
    for (long li = 0; li < rows; ++li) make_row(n, rank + li * p, a + li * w);

    for (long k = 0; k < n; ++k) {
      int owner = (int)(k % p);
      if (owner == rank) memcpy(pivot, a + (k / p) * w + k, (size_t)(w - k) * sizeof *pivot);
      MPI_Bcast(pivot, (int)(w - k), MPI_DOUBLE, owner, MPI_COMM_WORLD);
      /* pivot[0] is A[k][k]; pivot[j - k] is A[k][j]. Rows below k start after local row
       * (k - rank) / p, rounded up past k. */
      for (long li = (k + p - rank) / p; li < rows; ++li) {
        double *ri = a + li * w;
        double f = ri[k] / pivot[0];
        for (long j = k + 1; j < w; ++j) ri[j] -= f * pivot[j - k];
        ri[k] = 0.0;
      }
    }

    /* Column-oriented back substitution: the right-hand side (column n) of each row collects
     * the known terms in the order k = n-1, n-2, ..., whatever p is. */
    for (long k = n - 1; k >= 0; --k) {
      int owner = (int)(k % p);
      if (owner == rank) {
        const double *rk = a + (k / p) * w;
        x[k] = rk[n] / rk[k];
      }
      MPI_Bcast(&x[k], 1, MPI_DOUBLE, owner, MPI_COMM_WORLD);
      for (long li = 0; li < rows && rank + li * p < k; ++li) {
        double *ri = a + li * w;
        ri[n] -= ri[k] * x[k];
      }
    }
  }

  /* Check the solution against the original rows. */
  double local_resid = 0.0, resid = 0.0;
  double *orig = alloc((size_t)w, sizeof *orig);
  for (long li = 0; li < rows; ++li) {
    make_row(n, rank + li * p, orig);
    double s = 0.0;
    for (long j = 0; j < n; ++j) s += orig[j] * x[j];
    if (fabs(s - orig[n]) > local_resid) local_resid = fabs(s - orig[n]);
  }
  MPI_Allreduce(&local_resid, &resid, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);

  uint64_t checksum = vector_checksum(x, n); /* every process holds the whole solution */

  report("gauss", t0, checksum, "n=%ld reps=%ld resid=%.3e", n, reps, resid);
  free(a);
  free(pivot);
  free(x);
  free(orig);
  MPI_Finalize();
  return 0;
}
