/* stencil2d: Jacobi iteration for Laplace's equation on an n x n grid over a 2-D process grid.
 *
 * usage: stencil2d [n=256] [iters=100] [every=10]
 *
 * MPI_Dims_create and MPI_Cart_create arrange the processes in a grid; each owns a block of
 * the points plus a one-point halo. Every iteration exchanges the halo with the four
 * neighbours (MPI_Irecv and MPI_Isend, then MPI_Waitall), and every `every` iterations
 * MPI_Allreduce (max) gives the largest change, the residual. The top edge is held at 1, the
 * left edge at 0.5 and the others at 0. Needs n >= the process grid's size in each dimension.
 */
#include <math.h>

#include "example_common.h"

int main(int argc, char **argv) {
  int rank, p;
  start_mpi(&argc, &argv, &rank, &p);

  long n = arg_or(argc, argv, 1, 256);
  long iters = arg_or(argc, argv, 2, 100);
  long every = arg_or(argc, argv, 3, 10);
  int dims[2] = {0, 0};
  MPI_Dims_create(p, 2, dims);
  if (n < 0 || iters < 0 || every < 0 || n < dims[0] || n < dims[1] || n > 100000)
    return usage(rank, "stencil2d [n=256 (>= process grid side)] [iters=100] [every=10]");

  double t0 = start_clock();

  int periods[2] = {0, 0}, coords[2];
  MPI_Comm grid;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  int me;
  MPI_Comm_rank(grid, &me);
  MPI_Cart_coords(grid, me, 2, coords);
  int north, south, west, east; /* MPI_PROC_NULL at the edges of the domain */
  MPI_Cart_shift(grid, 0, 1, &north, &south);
  MPI_Cart_shift(grid, 1, 1, &west, &east);

  long r0 = block_start(n, dims[0], coords[0]), ny = block_size(n, dims[0], coords[0]);
  long c0 = block_start(n, dims[1], coords[1]), nx = block_size(n, dims[1], coords[1]);
  long w = nx + 2;
  double *u = alloc((size_t)(ny + 2) * (size_t)w, sizeof *u);
  double *v = alloc((size_t)(ny + 2) * (size_t)w, sizeof *v);
  /* Boundary values live in the halo of the processes on the domain's edges, in both arrays. */
  for (int k = 0; k < 2; ++k) {
    double *g = k ? v : u;
    if (north == MPI_PROC_NULL)
      for (long j = 0; j < w; ++j) g[j] = 1.0;
    if (west == MPI_PROC_NULL)
      for (long i = 1; i <= ny; ++i) g[i * w] = 0.5;
  }

  MPI_Datatype column;
  MPI_Type_vector((int)ny, 1, (int)w, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);

  double resid = 0.0;
  for (long it = 0; it < iters; ++it) {
    MPI_Request req[8];
    MPI_Irecv(u + 1, (int)nx, MPI_DOUBLE, north, 0, grid, &req[0]);
    MPI_Irecv(u + (ny + 1) * w + 1, (int)nx, MPI_DOUBLE, south, 1, grid, &req[1]);
    MPI_Irecv(u + w, 1, column, west, 2, grid, &req[2]);
    MPI_Irecv(u + w + nx + 1, 1, column, east, 3, grid, &req[3]);
    MPI_Isend(u + ny * w + 1, (int)nx, MPI_DOUBLE, south, 0, grid, &req[4]);
    MPI_Isend(u + w + 1, (int)nx, MPI_DOUBLE, north, 1, grid, &req[5]);
    MPI_Isend(u + w + nx, 1, column, east, 2, grid, &req[6]);
    MPI_Isend(u + w + 1, 1, column, west, 3, grid, &req[7]);
    MPI_Waitall(8, req, MPI_STATUSES_IGNORE);

    double change = 0.0;
    for (long i = 1; i <= ny; ++i)
      for (long j = 1; j <= nx; ++j) {
        long k = i * w + j;
        v[k] = 0.25 * ((u[k - w] + u[k + w]) + (u[k - 1] + u[k + 1]));
        double d = fabs(v[k] - u[k]);
        if (d > change) change = d;
      }
    double *t = u;
    u = v;
    v = t;
    if ((it + 1) % every == 0) MPI_Allreduce(&change, &resid, 1, MPI_DOUBLE, MPI_MAX, grid);
  }

  uint64_t local = 0;
  for (long i = 1; i <= ny; ++i)
    for (long j = 1; j <= nx; ++j)
      local += mix64((uint64_t)((r0 + i - 1) * n + c0 + j - 1)) * bits(u[i * w + j]);
  uint64_t checksum = checksum_to_root(local, grid);

  MPI_Type_free(&column);
  MPI_Comm_free(&grid);
  report("stencil2d", t0, checksum, "n=%ld iters=%ld every=%ld grid=%dx%d resid=%.3e", n, iters,
         every, dims[0], dims[1], resid);
  free(u);
  free(v);
  MPI_Finalize();
  return 0;
}
