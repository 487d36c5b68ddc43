/* A ring halo exchange by one-sided communication, for `augur run`'s accuracy on it
 * (bench/rma/run.py): every iteration computes, then puts BYTES into each neighbour's window,
 * between two fences (fence), each in a lock epoch of its target (lock), or in a
 * post/start/complete/wait epoch with both neighbours (pscw). Prints the loop's MPI_Wtime span
 * on rank 0, which under `augur run` is the predicted one.
 *   halo_put fence|lock|pscw BYTES ITERATIONS WORK */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 5 || (strcmp(argv[1], "fence") != 0 && strcmp(argv[1], "lock") != 0 && strcmp(argv[1], "pscw") != 0)) {
    if (rank == 0) fprintf(stderr, "usage: halo_put fence|lock|pscw BYTES ITERATIONS WORK\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int fence = strcmp(argv[1], "fence") == 0, pscw = strcmp(argv[1], "pscw") == 0;
  const int bytes = atoi(argv[2]);
  const long iterations = atol(argv[3]), work = atol(argv[4]);
  char* halo = calloc(2 * (size_t)bytes, 1);
  char* mine = malloc((size_t)bytes);
  memset(mine, 'a' + rank % 26, (size_t)bytes);
  MPI_Win win;
  MPI_Win_create(halo, 2 * bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  MPI_Group world, neighbours;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  const int both[2] = {left, right};
  MPI_Group_incl(world, left == right ? 1 : 2, both, &neighbours);
  volatile double x = 1.0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (long i = 0; i < iterations; ++i) {
    for (long k = 0; k < work; ++k) x = x * 1.0000001 + 1e-9;
    if (pscw) {
      MPI_Win_post(neighbours, 0, win);
      MPI_Win_start(neighbours, 0, win);
      MPI_Put(mine, bytes, MPI_CHAR, left, bytes, bytes, MPI_CHAR, win);
      MPI_Put(mine, bytes, MPI_CHAR, right, 0, bytes, MPI_CHAR, win);
      MPI_Win_complete(win);
      MPI_Win_wait(win);
    } else if (fence) {
      MPI_Win_fence(0, win);
      MPI_Put(mine, bytes, MPI_CHAR, left, bytes, bytes, MPI_CHAR, win);
      MPI_Put(mine, bytes, MPI_CHAR, right, 0, bytes, MPI_CHAR, win);
      MPI_Win_fence(0, win);
    } else {
      MPI_Win_lock(MPI_LOCK_SHARED, left, 0, win);
      MPI_Put(mine, bytes, MPI_CHAR, left, bytes, bytes, MPI_CHAR, win);
      MPI_Win_unlock(left, win);
      MPI_Win_lock(MPI_LOCK_SHARED, right, 0, win);
      MPI_Put(mine, bytes, MPI_CHAR, right, 0, bytes, MPI_CHAR, win);
      MPI_Win_unlock(right, win);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const double loop = MPI_Wtime() - start;
  if (rank == 0) printf("loop_seconds=%.9g x=%g\n", loop, (double)x);
  MPI_Group_free(&neighbours);
  MPI_Group_free(&world);
  MPI_Win_free(&win);
  free(halo);
  free(mine);
  MPI_Finalize();
  return 0;
}
