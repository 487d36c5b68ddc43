/* Test program for the reverse profiler: a ping-pong, a wildcard exchange and collectives whose
 * virtual times can be worked out by hand from the model (tests/revprof/CMakeLists.txt). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  int rank, size, i;
  int reps = argc > 1 ? atoi(argv[1]) : 10;
  int bytes = argc > 2 ? atoi(argv[2]) : 1000;
  char* buf = calloc(bytes > 0 ? bytes : 1, 1);
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double t0 = MPI_Wtime();
  for (i = 0; i < reps; ++i) {
    if (rank == 0) {
      MPI_Send(buf, bytes, MPI_CHAR, 1, 7, MPI_COMM_WORLD);
      MPI_Recv(buf, bytes, MPI_CHAR, MPI_ANY_SOURCE, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(buf, bytes, MPI_CHAR, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, bytes, MPI_CHAR, 0, 8, MPI_COMM_WORLD);
    }
  }
  double t1 = MPI_Wtime();
  /* Everyone sends its rank to rank 0, which receives with MPI_ANY_SOURCE via Irecv/Waitany. */
  int value = rank, sum = 0;
  if (rank == 0) {
    int n = size - 1;
    int* vals = calloc(n > 0 ? n : 1, sizeof(int));
    MPI_Request* reqs = calloc(n > 0 ? n : 1, sizeof(MPI_Request));
    for (i = 0; i < n; ++i) MPI_Irecv(&vals[i], 1, MPI_INT, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &reqs[i]);
    for (i = 0; i < n; ++i) {
      int idx;
      MPI_Status st;
      MPI_Waitany(n, reqs, &idx, &st);
      if (vals[idx] != st.MPI_SOURCE) { fprintf(stderr, "wrong source\n"); return 1; }
      sum += vals[idx];
    }
    free(vals);
    free(reqs);
  } else {
    MPI_Request r;
    MPI_Isend(&value, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  }
  int total = 0;
  MPI_Allreduce(&value, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Barrier(half);
  MPI_Comm_free(&half);
  double t2 = MPI_Wtime();
  /* A stencil's edge: non-blocking traffic with MPI_PROC_NULL, which MPI completes at once. */
  MPI_Request edge[2];
  MPI_Isend(buf, bytes, MPI_CHAR, MPI_PROC_NULL, 9, MPI_COMM_WORLD, &edge[0]);
  MPI_Irecv(buf, bytes, MPI_CHAR, MPI_PROC_NULL, 9, MPI_COMM_WORLD, &edge[1]);
  MPI_Waitall(2, edge, MPI_STATUSES_IGNORE);
  double t3 = MPI_Wtime();
  if (rank == 0)
    printf("pingpong_seconds=%.9g total_seconds=%.9g procnull_seconds=%.9g sum=%d allreduce=%d\n", (t1 - t0) / reps,
           t2 - t0, t3 - t2, sum, total);
  free(buf);
  MPI_Finalize();
  return 0;
}
