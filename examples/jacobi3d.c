/* jacobi3d: Jacobi iteration for Laplace's equation on an n x n x n grid over a 3-D process grid,
 * shaped as the halo exchanges of real codes are.
 *
 * usage: jacobi3d [n=32] [iters=20] [every=5] [periodic=0]
 *
 * MPI_Dims_create and MPI_Cart_create arrange the processes in a 3-D grid; each owns a block of
 * the points plus a one-point halo. Every iteration exchanges the six faces with the neighbours
 * (MPI_Irecv and MPI_Isend of packed faces, then MPI_Waitall): a face's size is the product of
 * the block's two other sides, n/dims[a] x n/dims[b]. Every `every` iterations MPI_Allreduce
 * (max) gives the largest change. The face z = 0 is held at 1, the others at 0. Needs n >= the
 * process grid's size in each dimension.
 *
 * periodic=1: the domain wraps around in every dimension, starting from a pattern of the global
 * coordinates, and a dimension the grid does not split has the rank's own faces copied into its
 * halo without a call, as molecular dynamics codes copy their own ghosts: the exchanges along a
 * dimension exist only from the count that splits it.
 */
#include <math.h>

#include "example_common.h"

/* A process's block of points: its sides without the one-point halo around it. */
typedef struct {
  long ext[3];
} Block;

static long index3(const Block *b, long i, long j, long k) {
  return (i * (b->ext[1] + 2) + j) * (b->ext[2] + 2) + k;
}

static long face_points(const Block *b, int d) {
  return d == 0 ? b->ext[1] * b->ext[2] : d == 1 ? b->ext[0] * b->ext[2] : b->ext[0] * b->ext[1];
}

/* Copies layer `at` (0 .. side + 1) of dimension d between the array and a packed face (pack:
 * array to face). */
static void copy_face(const Block *b, double *u, double *face, int d, long at, int pack) {
  long n = 0;
  long lo[3] = {1, 1, 1}, hi[3] = {b->ext[0], b->ext[1], b->ext[2]};
  lo[d] = hi[d] = at;
  for (long i = lo[0]; i <= hi[0]; ++i)
    for (long j = lo[1]; j <= hi[1]; ++j)
      for (long k = lo[2]; k <= hi[2]; ++k, ++n) {
        double *cell = u + index3(b, i, j, k);
        if (pack) face[n] = *cell;
        else *cell = face[n];
      }
}

static double sweep(const Block *b, const double *u, double *v) {
  double change = 0.0;
  for (long i = 1; i <= b->ext[0]; ++i)
    for (long j = 1; j <= b->ext[1]; ++j)
      for (long k = 1; k <= b->ext[2]; ++k) {
        long c = index3(b, i, j, k);
        double sum = (u[index3(b, i - 1, j, k)] + u[index3(b, i + 1, j, k)]) +
                     (u[index3(b, i, j - 1, k)] + u[index3(b, i, j + 1, k)]) +
                     (u[index3(b, i, j, k - 1)] + u[index3(b, i, j, k + 1)]);
        v[c] = sum / 6.0;
        double d = fabs(v[c] - u[c]);
        if (d > change) change = d;
      }
  return change;
}

int main(int argc, char **argv) {
  int rank, p;
  start_mpi(&argc, &argv, &rank, &p);

  long n = arg_or(argc, argv, 1, 32);
  long iters = arg_or(argc, argv, 2, 20);
  long every = arg_or(argc, argv, 3, 5);
  long periodic = arg_or(argc, argv, 4, 0);
  int dims[3] = {0, 0, 0};
  MPI_Dims_create(p, 3, dims);
  if (n < 0 || iters < 0 || every < 0 || n < dims[0] || n < dims[1] || n < dims[2] || n > 2000 ||
      (periodic != 0 && periodic != 1))
    return usage(rank, "jacobi3d [n=32 (>= process grid side)] [iters=20] [every=5] [periodic=0|1]");

  double t0 = start_clock();

  int periods[3] = {(int)periodic, (int)periodic, (int)periodic}, coords[3], me;
  MPI_Comm grid;
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &grid);
  MPI_Comm_rank(grid, &me);
  MPI_Cart_coords(grid, me, 3, coords);
  int lower[3], upper[3]; /* MPI_PROC_NULL at the edges of the domain */
  Block b;
  long start[3];
  for (int d = 0; d < 3; ++d) {
    MPI_Cart_shift(grid, d, 1, &lower[d], &upper[d]);
    start[d] = block_start(n, dims[d], coords[d]);
    b.ext[d] = block_size(n, dims[d], coords[d]);
  }
  size_t cells = (size_t)(b.ext[0] + 2) * (size_t)(b.ext[1] + 2) * (size_t)(b.ext[2] + 2);
  double *u = alloc(cells, sizeof *u), *v = alloc(cells, sizeof *v);
  if (periodic) /* a pattern of the global coordinates, the same whatever the grid */
    for (long i = 1; i <= b.ext[0]; ++i)
      for (long j = 1; j <= b.ext[1]; ++j)
        for (long k = 1; k <= b.ext[2]; ++k)
          u[index3(&b, i, j, k)] = (double)(((start[0] + i) * 7 + (start[1] + j) * 13 + (start[2] + k) * 29) % 17) / 17.0;
  else if (lower[2] == MPI_PROC_NULL) /* the held face z = 0 lives in the halo of the lowest blocks */
    for (long i = 0; i < b.ext[0] + 2; ++i)
      for (long j = 0; j < b.ext[1] + 2; ++j) u[index3(&b, i, j, 0)] = v[index3(&b, i, j, 0)] = 1.0;
  long most = face_points(&b, 0);
  for (int d = 1; d < 3; ++d) most = face_points(&b, d) > most ? face_points(&b, d) : most;
  double *out = alloc((size_t)(6 * most), sizeof *out), *in = alloc((size_t)(6 * most), sizeof *in);

  double resid = 0.0;
  for (long it = 0; it < iters; ++it) {
    MPI_Request req[12];
    int posted = 0;
    for (int d = 0; d < 3; ++d) {
      if (periodic && dims[d] == 1) continue; /* its own faces, copied below */
      int count = (int)face_points(&b, d);
      MPI_Irecv(in + (2 * d) * most, count, MPI_DOUBLE, lower[d], 2 * d, grid, &req[posted++]);
      MPI_Irecv(in + (2 * d + 1) * most, count, MPI_DOUBLE, upper[d], 2 * d + 1, grid, &req[posted++]);
    }
    for (int d = 0; d < 3; ++d) {
      int count = (int)face_points(&b, d);
      copy_face(&b, u, out + (2 * d) * most, d, b.ext[d], 1);
      copy_face(&b, u, out + (2 * d + 1) * most, d, 1, 1);
      if (periodic && dims[d] == 1) { /* the upper face is the lower halo, and the other way */
        memcpy(in + (2 * d) * most, out + (2 * d) * most, (size_t)count * sizeof *in);
        memcpy(in + (2 * d + 1) * most, out + (2 * d + 1) * most, (size_t)count * sizeof *in);
        continue;
      }
      MPI_Isend(out + (2 * d) * most, count, MPI_DOUBLE, upper[d], 2 * d, grid, &req[posted++]);
      MPI_Isend(out + (2 * d + 1) * most, count, MPI_DOUBLE, lower[d], 2 * d + 1, grid, &req[posted++]);
    }
    MPI_Waitall(posted, req, MPI_STATUSES_IGNORE);
    for (int d = 0; d < 3; ++d) {
      if (lower[d] != MPI_PROC_NULL) copy_face(&b, u, in + (2 * d) * most, d, 0, 0);
      if (upper[d] != MPI_PROC_NULL) copy_face(&b, u, in + (2 * d + 1) * most, d, b.ext[d] + 1, 0);
    }
    double change = sweep(&b, u, v);
    double *t = u;
    u = v;
    v = t;
    if ((it + 1) % every == 0) MPI_Allreduce(&change, &resid, 1, MPI_DOUBLE, MPI_MAX, grid);
  }

  uint64_t local = 0;
  for (long i = 1; i <= b.ext[0]; ++i)
    for (long j = 1; j <= b.ext[1]; ++j)
      for (long k = 1; k <= b.ext[2]; ++k) {
        uint64_t at = (uint64_t)(((start[0] + i - 1) * n + start[1] + j - 1) * n + start[2] + k - 1);
        local += mix64(at) * bits(u[index3(&b, i, j, k)]);
      }
  uint64_t checksum = checksum_to_root(local, grid);

  MPI_Comm_free(&grid);
  report("jacobi3d", t0, checksum, "n=%ld iters=%ld every=%ld periodic=%ld grid=%dx%dx%d resid=%.3e", n, iters, every,
         periodic, dims[0], dims[1], dims[2], resid);
  free(u);
  free(v);
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
