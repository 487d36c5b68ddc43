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
#include "example_common.h"

enum { TAG_READY = 1, TAG_RESULT = 2, TAG_TASK = 3, TAG_STOP = 4 };

/* A chain of dependent multiply-xorshift steps: pure computation the compiler cannot shorten.
 * One iteration is the compute step that augur bench times for a model's
 * compute.seconds_per_step (src/node/step.cpp), so the two must stay the same. */
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
  int rank, p;
  start_mpi(&argc, &argv, &rank, &p);

  long ntasks = arg_or(argc, argv, 1, 1000);
  long work = arg_or(argc, argv, 2, 1000);
  if (ntasks < 0 || work < 0 || ntasks > 100000000L)
    return usage(rank, "farm [n=1000 tasks] [work=1000]");

  double t0 = start_clock();

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

  report("farm", t0, checksum, "n=%ld work=%ld", ntasks, work);
  MPI_Finalize();
  return 0;
}
