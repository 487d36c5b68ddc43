/* mandel: the Mandelbrot set on an n x n grid, rows dealt to processes in slices.
 *
 * usage: mandel [n=512] [maxiter=256] [reps=1] [contiguous|cyclic]
 *
 * Each process computes the iteration counts of its rows; rank 0 gathers the whole image with
 * MPI_Gatherv. Contiguous slices give each process one block of rows (uneven work: the set sits
 * in the middle rows); cyclic slices deal row r to process r mod p (even work). reps repeats the
 * compute + gather so small images can be made communication-bound.
 */
#include <string.h>

#include "example_common.h"

/* Global row of the j-th local row of `rank`. */
static long global_row(int cyclic, long n, int p, int rank, long j) {
  return cyclic ? rank + j * p : block_start(n, p, rank) + j;
}

static long rows_of(int cyclic, long n, int p, int rank) {
  return cyclic ? (n - rank + p - 1) / p : block_size(n, p, rank);
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
  int rank, p;
  start_mpi(&argc, &argv, &rank, &p);

  long n = arg_or(argc, argv, 1, 512);
  long maxiter = arg_or(argc, argv, 2, 256);
  long reps = arg_or(argc, argv, 3, 1);
  int cyclic = argc > 4 && strcmp(argv[4], "cyclic") == 0;
  int bad_dist = argc > 4 && !cyclic && strcmp(argv[4], "contiguous") != 0;
  /* Counts and displacements of MPI_Gatherv are ints. */
  if (n < 0 || maxiter < 0 || reps < 0 || bad_dist || n > 40000 || maxiter > 1000000000L)
    return usage(rank, "mandel [n=512] [maxiter=256] [reps=1] [contiguous|cyclic]");

  double t0 = start_clock();

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

  report("mandel", t0, checksum, "n=%ld maxiter=%ld reps=%ld dist=%s", n, maxiter, reps,
         cyclic ? "cyclic" : "contiguous");
  free(local);
  free(image);
  free(counts);
  free(displs);
  MPI_Finalize();
  return 0;
}
