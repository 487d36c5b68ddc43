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
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OMEGA 1.2

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

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);

  long n = arg_or(argc, argv, 1, 500);
  long iters = arg_or(argc, argv, 2, 50);
  if (n < 0 || iters < 0 || n > 20000) {
    if (rank == 0) fprintf(stderr, "usage: sor [n=500] [iters=50]\n");
    MPI_Finalize();
    return 2;
  }

  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();

  long lo = n * rank / p, rows = n * (rank + 1) / p - lo;
  int *counts = alloc((size_t)p, sizeof *counts), *displs = alloc((size_t)p, sizeof *displs);
  for (int r = 0; r < p; ++r) {
    displs[r] = (int)(n * r / p);
    counts[r] = (int)(n * (r + 1) / p) - displs[r];
  }
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

  uint64_t checksum = 0; /* every process holds the whole vector */
  for (long i = 0; i < n; ++i) checksum += mix64((uint64_t)i) * bits(x[i]);

  MPI_Barrier(MPI_COMM_WORLD);
  double t1 = MPI_Wtime();
  if (rank == 0)
    printf("augur-example sor n=%ld iters=%ld resid=%.3e p=%d time=%.6f checksum=%016llx\n", n, iters,
           resid, p, t1 - t0, (unsigned long long)checksum);
  free(counts);
  free(displs);
  free(a);
  free(b);
  free(x);
  free(mine);
  MPI_Finalize();
  return 0;
}
