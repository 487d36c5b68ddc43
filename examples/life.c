/* life: Conway's Game of Life on an n x n torus, split into blocks of rows.
 *
 * usage: life [n=256] [iters=100]
 *
 * Every generation each process swaps its first and last rows with the processes above and
 * below (two MPI_Sendrecv calls: the send, send, recv, recv exchange of the original program,
 * written so that it cannot deadlock whatever the buffering), updates its rows, then all
 * processes meet in MPI_Barrier. Needs n >= p so that every process owns at least one row.
 */
#include "example_common.h"

int main(int argc, char **argv) {
  int rank, p;
  start_mpi(&argc, &argv, &rank, &p);

  long n = arg_or(argc, argv, 1, 256);
  long iters = arg_or(argc, argv, 2, 100);
  if (n < 0 || iters < 0 || n < p || n > 1000000)
    return usage(rank, "life [n=256 (>= processes)] [iters=100]");

  double t0 = start_clock();

  long lo = block_start(n, p, rank), rows = block_size(n, p, rank);
  long w = n + 2; /* one ghost column on each side holds the wrapped-around neighbour */
  unsigned char *cur = alloc((size_t)(rows + 2) * (size_t)w, 1);
  unsigned char *next = alloc((size_t)(rows + 2) * (size_t)w, 1);
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < n; ++j)
      cur[(i + 1) * w + j + 1] = (mix64((uint64_t)((lo + i) * n + j)) & 3) == 0; /* 25% alive */

  int up = (rank + p - 1) % p, down = (rank + 1) % p;
  for (long it = 0; it < iters; ++it) {
    /* First row goes up while the ghost row below arrives from down, then the reverse. */
    MPI_Sendrecv(cur + w + 1, (int)n, MPI_UNSIGNED_CHAR, up, 0, cur + (rows + 1) * w + 1, (int)n,
                 MPI_UNSIGNED_CHAR, down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(cur + rows * w + 1, (int)n, MPI_UNSIGNED_CHAR, down, 1, cur + 1, (int)n,
                 MPI_UNSIGNED_CHAR, up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (long i = 0; i < rows + 2; ++i) {
      cur[i * w] = cur[i * w + n];
      cur[i * w + n + 1] = cur[i * w + 1];
    }
    for (long i = 1; i <= rows; ++i) {
      const unsigned char *a = cur + (i - 1) * w, *b = cur + i * w, *c = cur + (i + 1) * w;
      unsigned char *out = next + i * w;
      for (long j = 1; j <= n; ++j) {
        int s = a[j - 1] + a[j] + a[j + 1] + b[j - 1] + b[j + 1] + c[j - 1] + c[j] + c[j + 1];
        out[j] = (unsigned char)(s == 3 || (s == 2 && b[j]));
      }
    }
    unsigned char *t = cur;
    cur = next;
    next = t;
    MPI_Barrier(MPI_COMM_WORLD);
  }

  /* Population and a position-weighted sum; both are exact integer sums, so any order of
   * reduction gives the same value. */
  uint64_t local[2] = {0, 0}, total[2] = {0, 0};
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < n; ++j)
      if (cur[(i + 1) * w + j + 1]) {
        local[0] += 1;
        local[1] += mix64((uint64_t)((lo + i) * n + j));
      }
  MPI_Reduce(local, total, 2, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);

  report("life", t0, total[1], "n=%ld iters=%ld alive=%llu", n, iters,
         (unsigned long long)total[0]);
  free(cur);
  free(next);
  MPI_Finalize();
  return 0;
}
