/* mandel: the Mandelbrot set on an n x n grid, rows dealt to processes in slices.
 *
 * usage: mandel [n=512] [maxiter=256] [reps=1] [contiguous|cyclic]
 *
 * Each process computes the iteration counts of its rows; rank 0 gathers the whole image with
 * MPI_Gatherv. Contiguous slices give each process one block of rows (uneven work: the set sits
 * in the middle rows); cyclic slices deal row r to process r mod p (even work). reps repeats the
 * compute + gather so small images can be made communication-bound.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One SplitMix64 step: gives every pixel index an unrelated 64-bit weight, so the checksum
 * (a weighted sum) changes if any count moves to another pixel. */
static uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL; /* so that index 0 gets a nonzero weight too */
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
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

/* Global row of the j-th local row of `rank`. */
static long global_row(int cyclic, long n, int p, int rank, long j) {
  return cyclic ? rank + j * p : n * rank / p + j;
}

static long rows_of(int cyclic, long n, int p, int rank) {
  return cyclic ? (n - rank + p - 1) / p : n * (rank + 1) / p - n * rank / p;
}

static int escape_count(double cx, double cy, int maxiter) {
  double x = 0.0, y = 0.0;
  int k = 0;
  while (k < maxiter && x * x + y * y <= 4.0) {
    double t = x * x - y * y + cx;
    y = 2.0 * x * y + cy;
    x = t;
    ++k;
  }
  return k;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);

  long n = arg_or(argc, argv, 1, 512);
  long maxiter = arg_or(argc, argv, 2, 256);
  long reps = arg_or(argc, argv, 3, 1);
  int cyclic = argc > 4 && strcmp(argv[4], "cyclic") == 0;
  int bad_dist = argc > 4 && !cyclic && strcmp(argv[4], "contiguous") != 0;
  /* Counts and displacements of MPI_Gatherv are ints. */
  if (n < 0 || maxiter < 0 || reps < 0 || bad_dist || n > 40000 || maxiter > 1000000000L) {
    if (rank == 0) fprintf(stderr, "usage: mandel [n=512] [maxiter=256] [reps=1] [contiguous|cyclic]\n");
    MPI_Finalize();
    return 2;
  }

  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();

  long nrows = rows_of(cyclic, n, p, rank);
  int *local = alloc((size_t)nrows * (size_t)n, sizeof *local);
  int *image = NULL, *counts = NULL, *displs = NULL;
  if (rank == 0) {
    image = alloc((size_t)n * (size_t)n, sizeof *image);
    counts = alloc((size_t)p, sizeof *counts);
    displs = alloc((size_t)p, sizeof *displs);
    int off = 0;
    for (int r = 0; r < p; ++r) {
      counts[r] = (int)(rows_of(cyclic, n, p, r) * n);
      displs[r] = off;
      off += counts[r];
    }
  }

  for (long rep = 0; rep < reps; ++rep) {
    for (long j = 0; j < nrows; ++j) {
      long row = global_row(cyclic, n, p, rank, j);
      double cy = -1.25 + 2.5 * (double)row / (double)n;
      for (long c = 0; c < n; ++c) {
        double cx = -2.0 + 2.5 * (double)c / (double)n;
        local[j * n + c] = escape_count(cx, cy, (int)maxiter);
      }
    }
    MPI_Gatherv(local, (int)(nrows * n), MPI_INT, image, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
  }

  /* The gathered image is in rank order; map each block back to its global rows. */
  uint64_t checksum = 0;
  if (rank == 0) {
    for (int r = 0; r < p; ++r) {
      long rows = rows_of(cyclic, n, p, r);
      for (long j = 0; j < rows; ++j) {
        long row = global_row(cyclic, n, p, r, j);
        const int *src = image + displs[r] + j * n;
        for (long c = 0; c < n; ++c)
          checksum += mix64((uint64_t)(row * n + c)) * (uint64_t)(src[c] + 1);
      }
    }
  }

  MPI_Barrier(MPI_COMM_WORLD);
  double t1 = MPI_Wtime();
  if (rank == 0)
    printf("augur-example mandel n=%ld maxiter=%ld reps=%ld dist=%s p=%d time=%.6f checksum=%016llx\n",
           n, maxiter, reps, cyclic ? "cyclic" : "contiguous", p, t1 - t0,
           (unsigned long long)checksum);
  free(local);
  free(image);
  free(counts);
  free(displs);
  MPI_Finalize();
  return 0;
}
