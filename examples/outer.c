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
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One SplitMix64 step: deterministic point coordinates and checksum weights. */
static uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL; /* so that index 0 gets a nonzero weight too */
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

/* The bit pattern of a double: the checksum must be exact, and every value it covers is
 * computed by the same operations in the same order whatever the number of processes. */
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

  long n = arg_or(argc, argv, 1, 1000);
  long reps = arg_or(argc, argv, 2, 1);
  if (n < 0 || reps < 0 || n > 20000) {
    if (rank == 0) fprintf(stderr, "usage: outer [n=1000] [reps=1]\n");
    MPI_Finalize();
    return 2;
  }

  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();

  long lo = n * rank / p, rows = n * (rank + 1) / p - lo;
  int *counts = alloc((size_t)p, sizeof *counts), *displs = alloc((size_t)p, sizeof *displs);
  for (int r = 0; r < p; ++r) {
    displs[r] = (int)(2 * (n * r / p)); /* two doubles per point */
    counts[r] = (int)(2 * (n * (r + 1) / p)) - displs[r];
  }
  double *mine = alloc((size_t)(2 * rows), sizeof *mine);
  double *pts = alloc((size_t)(2 * n), sizeof *pts);
  double *matrix = alloc((size_t)rows * (size_t)n, sizeof *matrix);
  double *vec = alloc((size_t)rows, sizeof *vec);
  double dmax = 0.0;

  for (long rep = 0; rep < reps; ++rep) {
    for (long i = 0; i < rows; ++i) { /* points uniform in [0, 1000)^2 */
      mine[2 * i] = (double)(mix64((uint64_t)(2 * (lo + i))) >> 11) * 0x1.0p-53 * 1000.0;
      mine[2 * i + 1] = (double)(mix64((uint64_t)(2 * (lo + i) + 1)) >> 11) * 0x1.0p-53 * 1000.0;
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

  uint64_t local_sum = 0, checksum = 0;
  for (long i = 0; i < rows; ++i) {
    double s = 0.0;
    for (long j = 0; j < n; ++j) s += matrix[i * n + j];
    local_sum += mix64((uint64_t)(lo + i)) * bits(s) + mix64((uint64_t)(n + lo + i)) * bits(vec[i]);
  }
  MPI_Reduce(&local_sum, &checksum, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);

  MPI_Barrier(MPI_COMM_WORLD);
  double t1 = MPI_Wtime();
  if (rank == 0)
    printf("augur-example outer n=%ld reps=%ld max=%.6f p=%d time=%.6f checksum=%016llx\n", n, reps, dmax,
           p, t1 - t0, (unsigned long long)checksum);
  free(counts);
  free(displs);
  free(mine);
  free(pts);
  free(matrix);
  free(vec);
  MPI_Finalize();
  return 0;
}
