/* Persistent requests: send_init/recv_init (and the synchronous and ready kinds) started with
   MPI_Start and MPI_Startall, completed, changed in place and started again; inactive
   requests waited for and freed. Ranks exchange around a ring. */
#include "conf.h"

enum { ROUNDS = 5, LENGTH = 6 };

int main(int argc, char **argv) {
  int size, right, left, round, i, flag;
  int out[LENGTH], in[LENGTH], big_out[5000], big_in[5000];
  MPI_Request requests[4];
  MPI_Status statuses[4], status;

  conf_init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  right = (conf_rank + 1) % size;
  left = (conf_rank + size - 1) % size;

  MPI_Recv_init(in, LENGTH, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &requests[0]);
  MPI_Send_init(out, LENGTH, MPI_INT, right, 1, MPI_COMM_WORLD, &requests[1]);
  MPI_Recv_init(big_in, 5000, MPI_INT, left, 2, MPI_COMM_WORLD, &requests[2]);
  MPI_Ssend_init(big_out, 5000, MPI_INT, right, 2, MPI_COMM_WORLD, &requests[3]);

  /* Waiting for requests never started returns at once with an empty status. */
  conf_reset_status(&status);
  MPI_Wait(&requests[0], &status);
  EXPECT(requests[0] != MPI_REQUEST_NULL && status.MPI_SOURCE == MPI_ANY_SOURCE && status.MPI_TAG == MPI_ANY_TAG);
  conf_print_status("wait on an inactive request", &status, MPI_INT);
  MPI_Test(&requests[1], &flag, &status);
  EXPECT(flag && requests[1] != MPI_REQUEST_NULL);

  for (round = 0; round < ROUNDS; round++) {
    for (i = 0; i < LENGTH; i++) out[i] = 1000 * round + 10 * conf_rank + i;
    for (i = 0; i < 5000; i++) big_out[i] = round * 7 + conf_rank + i;
    if (round % 2 == 0) {
      MPI_Startall(4, requests);
    } else {
      MPI_Start(&requests[2]);
      MPI_Start(&requests[0]);
      MPI_Start(&requests[3]);
      MPI_Start(&requests[1]);
    }
    conf_reset_status(&statuses[0]);
    MPI_Waitall(4, requests, statuses);
    for (i = 0; i < 4; i++) EXPECT(requests[i] != MPI_REQUEST_NULL);
    EXPECT(statuses[0].MPI_SOURCE == left && statuses[0].MPI_TAG == 1 && statuses[2].MPI_SOURCE == left);
    for (i = 0; i < LENGTH; i++) EXPECT(in[i] == 1000 * round + 10 * left + i);
    EXPECT(big_in[0] == round * 7 + left && big_in[4999] == round * 7 + left + 4999);
    if (round == ROUNDS - 1) conf_print_status("last round's receive", &statuses[0], MPI_INT);
  }
  for (i = 0; i < 4; i++) MPI_Request_free(&requests[i]);
  for (i = 0; i < 4; i++) EXPECT(requests[i] == MPI_REQUEST_NULL);
  conf_check("persistent-ring");

  /* A ready send needs its receive posted first: the barrier says it is. */
  MPI_Recv_init(in, LENGTH, MPI_INT, left, 3, MPI_COMM_WORLD, &requests[0]);
  MPI_Rsend_init(out, LENGTH, MPI_INT, right, 3, MPI_COMM_WORLD, &requests[1]);
  for (round = 0; round < 3; round++) {
    out[0] = round * 100 + conf_rank;
    MPI_Start(&requests[0]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Start(&requests[1]);
    MPI_Wait(&requests[1], MPI_STATUS_IGNORE);
    do MPI_Test(&requests[0], &flag, &status);
    while (!flag);
    EXPECT(in[0] == round * 100 + left && status.MPI_SOURCE == left);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Request_free(&requests[0]);
  MPI_Request_free(&requests[1]);
  conf_check("persistent-ready");

  /* Freeing an active persistent send is legal: it still completes. */
  if (conf_rank == 0) {
    out[0] = 77;
    MPI_Send_init(out, 1, MPI_INT, 1 % size, 4, MPI_COMM_WORLD, &requests[0]);
    MPI_Start(&requests[0]);
    MPI_Request_free(&requests[0]);
  }
  if (conf_rank == 1 % size) {
    MPI_Recv(in, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, &status);
    EXPECT(in[0] == 77);
  }
  conf_check("persistent-freed-while-active");
  return conf_finish();
}
