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
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One SplitMix64 step: deterministic matrix entries and checksum weights. */
static uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL; /* so that index 0 gets a nonzero weight too */
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

static double uniform(uint64_t key) { return (double)(mix64(key) >> 11) * 0x1.0p-53; }

/* The bit pattern of a double, for an exact checksum. */
static uint64_t bits(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}

/* Zeroed memory for count items (at least one, so empty blocks need no special case); stops the
 * whole job when memory runs out rather than letting one process crash. */
static void *alloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size);
  if (p == NULL) {
    fprintf(stderr, "out of memory (%zu x %zu bytes)\n", count, size);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return p;
}

/* argv[i] as a positive integer, def when absent, -1 when malformed. */
static long arg_or(int argc, char **argv, int i, long def) {
  if (i >= argc) return def;
  char *end = NULL;
  long v = strtol(argv[i], &end, 10);
  return (end == argv[i] || *end != '\0' || v <= 0) ? -1 : v;
}

/* Row i of the augmented matrix [A | b]: off-diagonal entries in [0, 1), a diagonal of n. */
static void make_row(long n, long i, double *row) {
  for (long j = 0; j < n; ++j) row[j] = (i == j) ? (double)n : uniform((uint64_t)(i * n + j));
  row[n] = (double)n * (1.0 + uniform((uint64_t)(n * n + i)));
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);

  long n = arg_or(argc, argv, 1, 256);
  long reps = arg_or(argc, argv, 2, 1);
  if (n < 0 || reps < 0 || n > 20000) {
    if (rank == 0) fprintf(stderr, "usage: gauss [n=256] [reps=1]\n");
    MPI_Finalize();
    return 2;
  }

  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();

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

  uint64_t checksum = 0; /* every process holds the whole solution */
  for (long i = 0; i < n; ++i) checksum += mix64((uint64_t)i) * bits(x[i]);

  MPI_Barrier(MPI_COMM_WORLD);
  double t1 = MPI_Wtime();
  if (rank == 0)
    printf("augur-example gauss n=%ld reps=%ld resid=%.3e p=%d time=%.6f checksum=%016llx\n", n, reps,
           resid, p, t1 - t0, (unsigned long long)checksum);
  free(a);
  free(pivot);
  free(x);
  free(orig);
  MPI_Finalize();
  return 0;
}
