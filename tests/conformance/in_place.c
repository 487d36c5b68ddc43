/* MPI_IN_PLACE in every collective that takes it, at roots where only the root may give it.
   Each result is checked against its definition; an odd process count makes the blocks
   uneven. */
#include "conf.h"

#include <stdlib.h>

enum { K = 3 }; /* ints per block */

static int v(int rank, int i) { return 100 * rank + i + 1; }

int main(int argc, char **argv) {
  int size, rank, root, i, j, r;
  int *buffer, *counts, *displs, *expected;

  conf_init(&argc, &argv);
  rank = conf_rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  root = size - 1;
  buffer = malloc(size * size * K * sizeof *buffer);
  counts = malloc(size * sizeof *counts);
  displs = malloc(size * sizeof *displs);
  expected = malloc(size * size * K * sizeof *expected);

  for (i = 0; i < K; i++) buffer[i] = v(rank, i);
  MPI_Allreduce(MPI_IN_PLACE, buffer, K, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (i = 0; i < K; i++) {
    int sum = 0;
    for (r = 0; r < size; r++) sum += v(r, i);
    EXPECT(buffer[i] == sum);
  }
  conf_check("in-place allreduce");

  for (i = 0; i < K; i++) buffer[i] = v(rank, i);
  if (rank == root) MPI_Reduce(MPI_IN_PLACE, buffer, K, MPI_INT, MPI_MAX, root, MPI_COMM_WORLD);
  else MPI_Reduce(buffer, NULL, K, MPI_INT, MPI_MAX, root, MPI_COMM_WORLD);
  if (rank == root)
    for (i = 0; i < K; i++) EXPECT(buffer[i] == v(size - 1, i));
  conf_check("in-place reduce");

  /* Every rank's own block in its place: the shape every gather-like result has. */
  for (r = 0; r < size; r++)
    for (i = 0; i < K; i++) expected[r * K + i] = v(r, i);

  for (i = 0; i < size * K; i++) buffer[i] = -1;
  for (i = 0; i < K; i++) buffer[rank * K + i] = v(rank, i);
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buffer, K, MPI_INT, MPI_COMM_WORLD);
  for (i = 0; i < size * K; i++) EXPECT(buffer[i] == expected[i]);
  conf_check("in-place allgather");

  /* Rank r contributes r+1 ints, packed one after the other. */
  for (r = 0, j = 0; r < size; r++) counts[r] = r + 1, displs[r] = j, j += r + 1;
  for (i = 0; i < j; i++) buffer[i] = -1;
  for (i = 0; i < counts[rank]; i++) buffer[displs[rank] + i] = v(rank, i);
  MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buffer, counts, displs, MPI_INT, MPI_COMM_WORLD);
  for (r = 0; r < size; r++)
    for (i = 0; i < counts[r]; i++) EXPECT(buffer[displs[r] + i] == v(r, i));
  conf_check("in-place allgatherv");

  for (i = 0; i < size * K; i++) buffer[i] = -1;
  for (i = 0; i < K; i++) buffer[rank * K + i] = v(rank, i);
  if (rank == root) {
    MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buffer, K, MPI_INT, root, MPI_COMM_WORLD);
    for (i = 0; i < size * K; i++) EXPECT(buffer[i] == expected[i]);
  } else {
    MPI_Gather(buffer + rank * K, K, MPI_INT, NULL, 0, MPI_DATATYPE_NULL, root, MPI_COMM_WORLD);
  }
  conf_check("in-place gather");

  for (i = 0; i < size * size; i++) buffer[i] = -1;
  for (i = 0; i < counts[rank]; i++) buffer[displs[rank] + i] = v(rank, i);
  if (rank == root) {
    MPI_Gatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buffer, counts, displs, MPI_INT, root, MPI_COMM_WORLD);
    for (r = 0; r < size; r++)
      for (i = 0; i < counts[r]; i++) EXPECT(buffer[displs[r] + i] == v(r, i));
  } else {
    MPI_Gatherv(buffer + displs[rank], counts[rank], MPI_INT, NULL, NULL, NULL, MPI_DATATYPE_NULL, root, MPI_COMM_WORLD);
  }
  conf_check("in-place gatherv");

  /* Scatter: the root keeps its own block where it is. */
  if (rank == root) {
    for (i = 0; i < size * K; i++) buffer[i] = expected[i];
    MPI_Scatter(buffer, K, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, root, MPI_COMM_WORLD);
    for (i = 0; i < size * K; i++) EXPECT(buffer[i] == expected[i]);
  } else {
    MPI_Scatter(NULL, 0, MPI_DATATYPE_NULL, buffer, K, MPI_INT, root, MPI_COMM_WORLD);
    for (i = 0; i < K; i++) EXPECT(buffer[i] == v(rank, i));
  }
  conf_check("in-place scatter");

  if (rank == root) {
    for (r = 0; r < size; r++)
      for (i = 0; i < counts[r]; i++) buffer[displs[r] + i] = v(r, i);
    MPI_Scatterv(buffer, counts, displs, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, root, MPI_COMM_WORLD);
    for (i = 0; i < counts[rank]; i++) EXPECT(buffer[displs[rank] + i] == v(rank, i));
  } else {
    for (i = 0; i < size; i++) buffer[i] = -1;
    MPI_Scatterv(NULL, NULL, NULL, MPI_DATATYPE_NULL, buffer, counts[rank], MPI_INT, root, MPI_COMM_WORLD);
    for (i = 0; i < counts[rank]; i++) EXPECT(buffer[i] == v(rank, i));
    EXPECT(buffer[counts[rank]] == -1 || counts[rank] == size);
  }
  conf_check("in-place scatterv");

  /* All-to-all: block j of rank r holds 1000 * r + j; afterwards block j holds what rank j
     had for this rank. */
  for (j = 0; j < size; j++)
    for (i = 0; i < K; i++) buffer[j * K + i] = 1000 * rank + 10 * j + i;
  MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buffer, K, MPI_INT, MPI_COMM_WORLD);
  for (j = 0; j < size; j++)
    for (i = 0; i < K; i++) EXPECT(buffer[j * K + i] == 1000 * j + 10 * rank + i);
  conf_check("in-place alltoall");

  /* In place, alltoallv exchanges blocks of equal size both ways: rank r and rank j swap
     min(r, j) + 1 ints. Blocks are spaced size ints apart. */
  for (j = 0; j < size; j++) {
    counts[j] = (rank < j ? rank : j) + 1;
    displs[j] = j * size;
    for (i = 0; i < size; i++) buffer[j * size + i] = i < counts[j] ? 1000 * rank + 10 * j + i : -1;
  }
  MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, buffer, counts, displs, MPI_INT, MPI_COMM_WORLD);
  for (j = 0; j < size; j++)
    for (i = 0; i < size; i++) EXPECT(buffer[j * size + i] == (i < counts[j] ? 1000 * j + 10 * rank + i : -1));
  conf_check("in-place alltoallv");

  {
    int *byte_displs = malloc(size * sizeof *byte_displs);
    MPI_Datatype *types = malloc(size * sizeof *types);
    for (j = 0; j < size; j++) {
      counts[j] = (rank < j ? rank : j) + 1;
      byte_displs[j] = (int)(j * size * sizeof(int));
      types[j] = MPI_INT;
      for (i = 0; i < size; i++) buffer[j * size + i] = i < counts[j] ? 1000 * rank + 10 * j + i : -1;
    }
    MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, buffer, counts, byte_displs, types, MPI_COMM_WORLD);
    for (j = 0; j < size; j++)
      for (i = 0; i < size; i++) EXPECT(buffer[j * size + i] == (i < counts[j] ? 1000 * j + 10 * rank + i : -1));
    free(byte_displs);
    free(types);
  }
  conf_check("in-place alltoallw");

  /* Reduce-scatter: rank r gets the sums of block r, r + 1 ints long. */
  for (r = 0, j = 0; r < size; r++) counts[r] = r + 1, displs[r] = j, j += r + 1;
  for (i = 0; i < j; i++) buffer[i] = rank * i + 1;
  MPI_Reduce_scatter(MPI_IN_PLACE, buffer, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (i = 0; i < counts[rank]; i++) {
    int at = displs[rank] + i, sum = 0;
    for (r = 0; r < size; r++) sum += r * at + 1;
    EXPECT(buffer[i] == sum);
  }
  conf_check("in-place reduce_scatter");

  for (i = 0; i < size * K; i++) buffer[i] = rank * i + 1;
  MPI_Reduce_scatter_block(MPI_IN_PLACE, buffer, K, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (i = 0; i < K; i++) {
    int at = rank * K + i, sum = 0;
    for (r = 0; r < size; r++) sum += r * at + 1;
    EXPECT(buffer[i] == sum);
  }
  conf_check("in-place reduce_scatter_block");

  for (i = 0; i < K; i++) buffer[i] = v(rank, i);
  MPI_Scan(MPI_IN_PLACE, buffer, K, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (i = 0; i < K; i++) {
    int sum = 0;
    for (r = 0; r <= rank; r++) sum += v(r, i);
    EXPECT(buffer[i] == sum);
  }
  conf_check("in-place scan");

  for (i = 0; i < K; i++) buffer[i] = v(rank, i);
  MPI_Exscan(MPI_IN_PLACE, buffer, K, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  /* Rank 0's buffer is undefined after an exscan. */
  if (rank > 0)
    for (i = 0; i < K; i++) {
      int sum = 0;
      for (r = 0; r < rank; r++) sum += v(r, i);
      EXPECT(buffer[i] == sum);
    }
  conf_check("in-place exscan");

  {
    MPI_Request request;
    for (i = 0; i < K; i++) buffer[i] = v(rank, i);
    MPI_Iallreduce(MPI_IN_PLACE, buffer, K, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    for (i = 0; i < K; i++) EXPECT(buffer[i] == v(0, i));
  }
  conf_check("in-place iallreduce");

  free(buffer);
  free(counts);
  free(displs);
  free(expected);
  return conf_finish();
}
