/* One-sided communication under the reverse profiler: a fence epoch of puts, a passive-target
 * epoch (lock, MPI_Rput and its wait, unlock), a fence epoch of gets, an accumulate under
 * lock_all and a post/start/complete/wait epoch. Ranks 0 and 1 print each epoch's MPI_Wtime
 * span, and every rank what its window holds, so a test compares the data with a plain run and
 * the spans with the model.
 *   one_sided BYTES */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int bytes = argc > 1 ? atoi(argv[1]) : 1000;
  char* exposed = calloc((size_t)bytes, 1);
  char* mine = malloc((size_t)bytes);
  memset(mine, 'a' + rank, (size_t)bytes);
  MPI_Win win;
  MPI_Win_create(exposed, bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  const int next = (rank + 1) % size;

  /* Each fence epoch opens and closes with its assertions, so locks may come between them. */
  MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
  double t = MPI_Wtime();
  if (rank == 0) MPI_Put(mine, bytes, MPI_CHAR, next, 0, bytes, MPI_CHAR, win);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  const double fence_put = MPI_Wtime() - t;
  printf("result: rank %d after the put holds %c\n", rank, exposed[bytes - 1] ? exposed[bytes - 1] : '0');

  t = MPI_Wtime();
  if (rank == 0) {
    MPI_Request put;
    MPI_Win_lock(MPI_LOCK_SHARED, next, 0, win);
    MPI_Rput(mine, bytes, MPI_CHAR, next, 0, bytes, MPI_CHAR, win, &put);
    MPI_Wait(&put, MPI_STATUS_IGNORE);
    MPI_Win_unlock(next, win);
  }
  const double lock_put = MPI_Wtime() - t;

  if (rank == 0) memset(exposed, 'z', (size_t)bytes);
  MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
  t = MPI_Wtime();
  char* fetched = calloc((size_t)bytes, 1);
  if (rank == 1) MPI_Get(fetched, bytes, MPI_CHAR, 0, 0, bytes, MPI_CHAR, win);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  const double fence_get = MPI_Wtime() - t;
  if (rank == 1) printf("result: rank 1 got %c\n", fetched[0] ? fetched[0] : '0');

  /* A counter in memory MPI allocates: MPICH 4.0 loses passive-target accumulates into memory
   * given to MPI_Win_create. */
  int one = 1, *counter;
  MPI_Win counter_win;
  MPI_Win_allocate(sizeof *counter, sizeof *counter, MPI_INFO_NULL, MPI_COMM_WORLD, &counter, &counter_win);
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, counter_win);
  *counter = 0;
  MPI_Win_unlock(rank, counter_win);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock_all(0, counter_win);
  MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, counter_win);
  MPI_Win_unlock_all(counter_win);
  MPI_Barrier(MPI_COMM_WORLD);

  /* A post/start/complete/wait epoch: rank 0 puts 'p's into rank 1's window. */
  double pscw = 0;
  char* posted = malloc((size_t)bytes);
  memset(posted, 'p', (size_t)bytes);
  MPI_Group world_group, peer;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  if (rank < 2) {
    const int other = 1 - rank;
    MPI_Group_incl(world_group, 1, &other, &peer);
    t = MPI_Wtime();
    if (rank == 0) {
      MPI_Win_start(peer, 0, win);
      MPI_Put(posted, bytes, MPI_CHAR, 1, 0, bytes, MPI_CHAR, win);
      MPI_Win_complete(win);
    } else {
      MPI_Win_post(peer, 0, win);
      MPI_Win_wait(win);
      printf("result: rank 1 after post/start/complete/wait holds %c\n", exposed[0]);
    }
    pscw = MPI_Wtime() - t;
    MPI_Group_free(&peer);
  }
  MPI_Group_free(&world_group);
  if (rank == 0) {
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, counter_win);
    printf("result: the counter reached %d of %d\n", *counter, size);
    MPI_Win_unlock(0, counter_win);
    printf("fence_put_seconds=%.12g lock_put_seconds=%.12g pscw_origin_seconds=%.12g\n", fence_put, lock_put, pscw);
  }
  if (rank == 1) printf("fence_get_seconds=%.12g pscw_target_seconds=%.12g\n", fence_get, pscw);
  MPI_Win_free(&counter_win);
  MPI_Win_free(&win);
  free(exposed);
  free(mine);
  free(fetched);
  free(posted);
  MPI_Finalize();
  return 0;
}
