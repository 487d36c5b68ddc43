/* pencil: the transposes of a 3-D FFT in a pencil decomposition, shaped as spectral codes are.
 *
 * usage: pencil [n=32] [steps=4]
 *
 * An n x n x n array is split over a 2-D process grid (MPI_Dims_create, MPI_Cart_create) into
 * pencils: each rank holds full lines along one axis. A step transforms along that axis (a mixing
 * pass over each line standing in for a 1-D FFT), transposes within its grid row
 * (MPI_Cart_sub, MPI_Alltoall) so that the lines run along the next axis, transforms again,
 * transposes within its grid column, and transforms the third axis; MPI_Allreduce of a norm ends
 * the step. Needs n divisible by both sides of the process grid. The transposes move blocks
 * without a real FFT's index arithmetic, so the checksum depends on the process count.
 */
#include <math.h>

#include "example_common.h"

/* One pass over `lines` lines of `len` values, each value mixed with its neighbours along the
 * line: O(len) work a line, as an FFT's O(len log len) is, without its data movement. */
static void transform(double *a, long lines, long len) {
  for (long l = 0; l < lines; ++l) {
    double *x = a + l * len;
    double carry = x[len - 1];
    for (long i = 0; i < len; ++i) {
      double v = x[i];
      x[i] = 0.5 * v + 0.25 * carry + 0.25 * sin(v);
      carry = v;
    }
  }
}

/* Alltoall of equal blocks within `comm` of `parts` ranks: block b of `a` goes to rank b. */
static void transpose(double *a, double *scratch, long count, int parts, MPI_Comm comm) {
  int block = (int)(count / parts);
  MPI_Alltoall(a, block, MPI_DOUBLE, scratch, block, MPI_DOUBLE, comm);
  memcpy(a, scratch, (size_t)count * sizeof *a);
}

int main(int argc, char **argv) {
  int rank, p;
  start_mpi(&argc, &argv, &rank, &p);

  long n = arg_or(argc, argv, 1, 32);
  long steps = arg_or(argc, argv, 2, 4);
  int dims[2] = {0, 0};
  MPI_Dims_create(p, 2, dims);
  if (n < 0 || steps < 0 || n > 1024 || n % dims[0] != 0 || n % dims[1] != 0)
    return usage(rank, "pencil [n=32 (divisible by both sides of the process grid)] [steps=4]");

  double t0 = start_clock();

  int periods[2] = {0, 0}, keep_row[2] = {0, 1}, keep_column[2] = {1, 0};
  MPI_Comm grid, row, column;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  MPI_Cart_sub(grid, keep_row, &row);
  MPI_Cart_sub(grid, keep_column, &column);
  int me;
  MPI_Comm_rank(grid, &me);

  long count = n * n * n / p; /* a pencil: n / dims[0] x n / dims[1] lines of n values */
  double *a = alloc((size_t)count, sizeof *a), *scratch = alloc((size_t)count, sizeof *scratch);
  for (long i = 0; i < count; ++i) a[i] = uniform((uint64_t)me * (uint64_t)count + (uint64_t)i);

  double norm = 0.0;
  for (long s = 0; s < steps; ++s) {
    transform(a, count / n, n);
    transpose(a, scratch, count, dims[1], row);
    transform(a, count / n, n);
    transpose(a, scratch, count, dims[0], column);
    transform(a, count / n, n);
    double local = 0.0;
    for (long i = 0; i < count; ++i) local += a[i] * a[i];
    MPI_Allreduce(&local, &norm, 1, MPI_DOUBLE, MPI_SUM, grid);
  }

  uint64_t sum = 0;
  for (long i = 0; i < count; ++i) sum += mix64((uint64_t)i) * (uint64_t)(a[i] * 1e6);
  uint64_t checksum = checksum_to_root(sum, grid);

  MPI_Comm_free(&row);
  MPI_Comm_free(&column);
  MPI_Comm_free(&grid);
  report("pencil", t0, checksum, "n=%ld steps=%ld grid=%dx%d norm=%.6e", n, steps, dims[0], dims[1], norm);
  free(a);
  free(scratch);
  MPI_Finalize();
  return 0;
}
