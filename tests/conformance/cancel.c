/* MPI_Cancel and MPI_Test_cancelled. A receive that nothing matches is cancelled; one already
   complete is not, and keeps its data; a cancelled persistent receive can be started again.
   Whether a send can be cancelled is the library's choice: the outcome is printed, and the
   message must arrive exactly when the cancel failed. */
#include "conf.h"

int main(int argc, char **argv) {
  int data[4] = {0, 0, 0, 0}, flag = 0, cancelled = -1;
  MPI_Request request;
  MPI_Status status;

  conf_init(&argc, &argv);

  if (conf_rank == 0) {
    MPI_Irecv(data, 4, MPI_INT, 1, 99, MPI_COMM_WORLD, &request);
    MPI_Cancel(&request);
    MPI_Wait(&request, &status);
    MPI_Test_cancelled(&status, &cancelled);
    EXPECT(cancelled && request == MPI_REQUEST_NULL);
    conf_print("unmatched recv: cancelled=%d\n", cancelled);

    MPI_Irecv(data, 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &request);
    MPI_Cancel(&request);
    MPI_Wait(&request, &status);
    MPI_Test_cancelled(&status, &cancelled);
    EXPECT(cancelled);
    conf_print("unmatched wildcard recv: cancelled=%d\n", cancelled);
  }
  MPI_Barrier(MPI_COMM_WORLD);

  /* A receive that has completed but was not yet waited for. */
  if (conf_rank == 1) {
    int out[4] = {1, 2, 3, 4};
    MPI_Send(out, 4, MPI_INT, 0, 1, MPI_COMM_WORLD);
  } else if (conf_rank == 0) {
    MPI_Irecv(data, 4, MPI_INT, 1, 1, MPI_COMM_WORLD, &request);
    do MPI_Request_get_status(request, &flag, MPI_STATUS_IGNORE);
    while (!flag);
    MPI_Cancel(&request);
    MPI_Wait(&request, &status);
    MPI_Test_cancelled(&status, &cancelled);
    MPI_Get_count(&status, MPI_INT, &flag);
    EXPECT(!cancelled && flag == 4 && data[0] == 1 && data[3] == 4);
    conf_print("completed recv: cancelled=%d count=%d\n", cancelled, flag);
  }
  conf_check("cancel-recv");

  if (conf_rank == 0) {
    int i, in = -1;
    MPI_Recv_init(&in, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, &request);
    MPI_Start(&request);
    MPI_Cancel(&request);
    MPI_Wait(&request, &status);
    MPI_Test_cancelled(&status, &cancelled);
    EXPECT(cancelled && request != MPI_REQUEST_NULL);
    conf_print("persistent recv: cancelled=%d\n", cancelled);
    MPI_Send(&cancelled, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
    for (i = 0; i < 2; i++) {
      MPI_Start(&request);
      MPI_Wait(&request, &status);
      MPI_Test_cancelled(&status, &cancelled);
      EXPECT(!cancelled && in == 10 + i && status.MPI_SOURCE == 1);
    }
    MPI_Request_free(&request);
  } else if (conf_rank == 1) {
    int i, go;
    MPI_Recv(&go, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (i = 0; i < 2; i++) {
      int out = 10 + i;
      MPI_Send(&out, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
    }
  }
  conf_check("cancel-persistent-recv");

  if (conf_rank == 1) {
    int out[4] = {5, 6, 7, 8};
    MPI_Isend(out, 4, MPI_INT, 0, 4, MPI_COMM_WORLD, &request);
    MPI_Cancel(&request);
    MPI_Wait(&request, &status);
    MPI_Test_cancelled(&status, &cancelled);
    MPI_Send(&cancelled, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
  } else if (conf_rank == 0) {
    MPI_Recv(&cancelled, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    conf_print("send: cancelled=%d\n", cancelled);
    if (!cancelled) {
      MPI_Recv(data, 4, MPI_INT, 1, 4, MPI_COMM_WORLD, &status);
      EXPECT(data[0] == 5 && data[3] == 8);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  /* Nothing else is in flight now: a cancelled send must have left nothing behind. */
  if (conf_rank == 0) {
    MPI_Iprobe(1, 4, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    EXPECT(!flag);
  }
  conf_check("cancel-send");
  return conf_finish();
}
