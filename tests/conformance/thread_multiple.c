/* A program that asks for MPI_THREAD_MULTIPLE and, when granted, exchanges messages from two
   threads at once on communicators of their own. Under augur the run is predicted, and it must
   still run to the end and leave the program's exit status. */
#include "conf.h"

#include <pthread.h>

enum { THREADS = 2, ROUNDS = 50 };

struct work {
  MPI_Comm comm;
  int rank, size, ok;
};

static void *exchange(void *argument) {
  struct work *w = argument;
  int round, in, out, right = (w->rank + 1) % w->size, left = (w->rank + w->size - 1) % w->size;
  w->ok = 1;
  for (round = 0; round < ROUNDS; round++) {
    out = 1000 * round + w->rank;
    MPI_Sendrecv(&out, 1, MPI_INT, right, round, &in, 1, MPI_INT, left, round, w->comm, MPI_STATUS_IGNORE);
    if (in != 1000 * round + left) w->ok = 0;
  }
  return NULL;
}

int main(int argc, char **argv) {
  int provided, size, t;
  pthread_t threads[THREADS];
  struct work work[THREADS];

  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &conf_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  conf_print("provided: %s\n", provided == MPI_THREAD_MULTIPLE ? "MPI_THREAD_MULTIPLE" : "less");
  {
    int query;
    MPI_Query_thread(&query);
    EXPECT(query == provided);
  }
  for (t = 0; t < THREADS; t++) {
    MPI_Comm_dup(MPI_COMM_WORLD, &work[t].comm);
    work[t].rank = conf_rank;
    work[t].size = size;
  }
  if (provided == MPI_THREAD_MULTIPLE) {
    for (t = 0; t < THREADS; t++) pthread_create(&threads[t], NULL, exchange, &work[t]);
    for (t = 0; t < THREADS; t++) pthread_join(threads[t], NULL);
  } else {
    for (t = 0; t < THREADS; t++) exchange(&work[t]);
  }
  for (t = 0; t < THREADS; t++) {
    EXPECT(work[t].ok);
    MPI_Comm_free(&work[t].comm);
  }
  conf_check("thread-multiple");
  return conf_finish();
}
