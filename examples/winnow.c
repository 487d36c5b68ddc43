/* winnow: select evenly spaced points, by value, from the masked cells of an n x n matrix.
 *
 * usage: winnow [n=500] [npoints=n] [reps=1]
 *
 * Each process owns a block of rows of an integer matrix and a mask. It sends every masked
 * cell (value, row, column) to the process responsible for the cell's value range: MPI_Alltoall
 * of the counts, then MPI_Alltoallv of the points. Each process sorts what it received; the
 * processes then hold the points in global order. MPI_Allgather of the sorted counts tells each
 * process which of the npoints evenly spaced positions it holds, and MPI_Reduce adds up their
 * checksum. reps repeats the selection so small n can be made communication-bound.
 */
#include <string.h>

#include "example_common.h"

#define VALUES (1L << 20) /* matrix values lie in [0, VALUES) */

typedef struct {
  int value, row, col;
} point;

/* Ties in value are broken by position, so the order is total and the selection unique. */
static int by_value(const void *pa, const void *pb) {
  const point *a = pa, *b = pb;
  if (a->value != b->value) return a->value < b->value ? -1 : 1;
  if (a->row != b->row) return a->row < b->row ? -1 : 1;
  return (a->col > b->col) - (a->col < b->col);
}

int main(int argc, char **argv) {
  int rank, p;
  start_mpi(&argc, &argv, &rank, &p);

  long n = arg_or(argc, argv, 1, 500);
  long npoints = arg_or(argc, argv, 2, n > 0 ? n : 1);
  long reps = arg_or(argc, argv, 3, 1);
  /* Point counts times 3 ints must fit the int counts of MPI_Alltoallv. */
  if (n < 0 || npoints < 0 || reps < 0 || n > 20000 || npoints > 1000000000L)
    return usage(rank, "winnow [n=500] [npoints=n] [reps=1]");

  double t0 = start_clock();

  long lo = block_start(n, p, rank), rows = block_size(n, p, rank);
  int *value = alloc((size_t)rows * (size_t)n, sizeof *value);
  unsigned char *mask = alloc((size_t)rows * (size_t)n, 1);
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < n; ++j) {
      uint64_t h = mix64((uint64_t)((lo + i) * n + j));
      value[i * n + j] = (int)(h % VALUES);
      mask[i * n + j] = (h >> 63) != 0; /* about half the cells */
    }

  int *sendcounts = alloc((size_t)p, sizeof(int)), *recvcounts = alloc((size_t)p, sizeof(int));
  int *sdispls = alloc((size_t)p, sizeof(int)), *rdispls = alloc((size_t)p, sizeof(int));
  int *fill = alloc((size_t)p, sizeof(int)), *sorted_counts = alloc((size_t)p, sizeof(int));
  point *out = NULL, *in = NULL;
  uint64_t checksum = 0, total = 0;

  for (long rep = 0; rep < reps; ++rep) {
    /* Value v goes to process v * p / VALUES: equal value ranges, so equal shares on average. */
    memset(sendcounts, 0, (size_t)p * sizeof(int));
    for (long k = 0; k < rows * n; ++k)
      if (mask[k]) ++sendcounts[(long)value[k] * p / VALUES];
    MPI_Alltoall(sendcounts, 1, MPI_INT, recvcounts, 1, MPI_INT, MPI_COMM_WORLD);

    long nsend = 0, nrecv = 0;
    for (int r = 0; r < p; ++r) {
      fill[r] = (int)nsend;
      nsend += sendcounts[r];
      nrecv += recvcounts[r];
    }
    free(out);
    free(in);
    out = alloc((size_t)nsend, sizeof *out);
    in = alloc((size_t)nrecv, sizeof *in);
    for (long i = 0; i < rows; ++i)
      for (long j = 0; j < n; ++j)
        if (mask[i * n + j]) {
          point pt = {value[i * n + j], (int)(lo + i), (int)j};
          out[fill[(long)pt.value * p / VALUES]++] = pt;
        }
    /* A point travels as three ints. */
    long soff = 0, roff = 0;
    for (int r = 0; r < p; ++r) {
      sdispls[r] = (int)(3 * soff);
      rdispls[r] = (int)(3 * roff);
      soff += sendcounts[r];
      roff += recvcounts[r];
      sendcounts[r] *= 3;
      recvcounts[r] *= 3;
    }
    MPI_Alltoallv(out, sendcounts, sdispls, MPI_INT, in, recvcounts, rdispls, MPI_INT, MPI_COMM_WORLD);
    qsort(in, (size_t)nrecv, sizeof *in, by_value);

    /* Position k of npoints takes the point of global rank k * total / npoints. */
    int mine = (int)nrecv;
    MPI_Allgather(&mine, 1, MPI_INT, sorted_counts, 1, MPI_INT, MPI_COMM_WORLD);
    long first = 0;
    total = 0;
    for (int r = 0; r < p; ++r) {
      if (r < rank) first += sorted_counts[r];
      total += (uint64_t)sorted_counts[r];
    }
    uint64_t local = 0;
    if (total > 0 && nrecv > 0) {
      /* The positions whose global rank falls in [first, first + nrecv). */
      long k = (long)(((uint64_t)first * (uint64_t)npoints + total - 1) / total);
      for (; k < npoints; ++k) {
        long g = (long)((uint64_t)k * total / (uint64_t)npoints);
        if (g >= first + nrecv) break;
        const point *pt = &in[g - first];
        local += mix64((uint64_t)k) * (uint64_t)((long)pt->row * n + pt->col + 1);
      }
    }
    checksum = checksum_to_root(local, MPI_COMM_WORLD);
  }

  report("winnow", t0, checksum, "n=%ld npoints=%ld reps=%ld masked=%llu", n, npoints, reps,
         (unsigned long long)total);
  free(value);
  free(mask);
  free(sendcounts);
  free(recvcounts);
  free(sdispls);
  free(rdispls);
  free(fill);
  free(sorted_counts);
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
