/* farm: a master-worker task farm.
 *
 * usage: farm [n=1000 tasks] [work=1000]
 *
 * Rank 0 hands out tasks; every other rank asks for work, computes a task and returns its
 * result. The master waits for any message from any worker (MPI_ANY_SOURCE, MPI_ANY_TAG: a
 * request for a first task or a result) and answers the sender with the next task or with
 * the order to stop. Task t costs between 1 and 4 times `work` steps, so the farm balances an
 * uneven load. Results are stored by task number, so the checksum does not depend on which
 * worker computed what or in which order the results arrived. With one process the master
 * computes every task itself.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { TAG_READY = 1, TAG_RESULT = 2, TAG_TASK = 3, TAG_STOP = 4 };

/* One SplitMix64 step: task costs, task inputs and checksum weights. */
static uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL; /* so that index 0 gets a nonzero weight too */
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

/* Zeroed memory for count items (at least one, so empty blocks need no special case); stops the
 * whole job when memory runs out rather than letting one process crash. */
static void *alloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size);
  if (p == NULL) {
    fprintf(stderr, "out of memory (%zu x %zu bytes)\n", count, size);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return p;
}

/* argv[i] as a positive integer, def when absent, -1 when malformed. */
static long arg_or(int argc, char **argv, int i, long def) {
  if (i >= argc) return def;
  char *end = NULL;
  long v = strtol(argv[i], &end, 10);
  return (end == argv[i] || *end != '\0' || v <= 0) ? -1 : v;
}

/* A chain of dependent multiply-xorshift steps: pure computation the compiler cannot shorten. */
static uint64_t run_task(uint64_t t, long work) {
  long steps = work * (long)(1 + mix64(t) % 4);
  uint64_t x = mix64(t ^ 0x5bd1e995ULL);
  for (long s = 0; s < steps; ++s) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    x ^= x >> 29;
  }
  return x;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);

  long ntasks = arg_or(argc, argv, 1, 1000);
  long work = arg_or(argc, argv, 2, 1000);
  if (ntasks < 0 || work < 0 || ntasks > 100000000L) {
    if (rank == 0) fprintf(stderr, "usage: farm [n=1000 tasks] [work=1000]\n");
    MPI_Finalize();
    return 2;
  }

  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();

  uint64_t checksum = 0;
  if (rank == 0) {
    uint64_t *result = alloc((size_t)ntasks, sizeof *result);
    if (p == 1) {
      for (long t = 0; t < ntasks; ++t) result[t] = run_task((uint64_t)t, work);
    } else {
      long next = 0;
      int active = p - 1;
      while (active > 0) {
        uint64_t msg[2]; /* a result: task number and value; a request: ignored */
        MPI_Status st;
        MPI_Recv(msg, 2, MPI_UINT64_T, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        if (st.MPI_TAG == TAG_RESULT) result[msg[0]] = msg[1];
        if (next < ntasks) {
          uint64_t task = (uint64_t)next++;
          MPI_Send(&task, 1, MPI_UINT64_T, st.MPI_SOURCE, TAG_TASK, MPI_COMM_WORLD);
        } else {
          uint64_t none = 0;
          MPI_Send(&none, 1, MPI_UINT64_T, st.MPI_SOURCE, TAG_STOP, MPI_COMM_WORLD);
          --active;
        }
      }
    }
    for (long t = 0; t < ntasks; ++t) checksum += mix64((uint64_t)t) * result[t];
    free(result);
  } else {
    uint64_t msg[2] = {0, 0};
    MPI_Send(msg, 2, MPI_UINT64_T, 0, TAG_READY, MPI_COMM_WORLD);
    for (;;) {
      uint64_t task;
      MPI_Status st;
      MPI_Recv(&task, 1, MPI_UINT64_T, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      if (st.MPI_TAG == TAG_STOP) break;
      msg[0] = task;
      msg[1] = run_task(task, work);
      MPI_Send(msg, 2, MPI_UINT64_T, 0, TAG_RESULT, MPI_COMM_WORLD);
    }
  }

  MPI_Barrier(MPI_COMM_WORLD);
  double t1 = MPI_Wtime();
  if (rank == 0)
    printf("augur-example farm n=%ld work=%ld p=%d time=%.6f checksum=%016llx\n", ntasks, work, p,
           t1 - t0, (unsigned long long)checksum);
  MPI_Finalize();
  return 0;
}
