/* Every status field after each single-completion call: MPI_SOURCE, MPI_TAG and the count are
   the program's, and MPI_ERROR is whatever the library leaves there (the standard says single
   completions do not set it; the value printed must be the same with and without the shim).
   Also MPI_STATUS_IGNORE, MPI_STATUSES_IGNORE and MPI_Request_get_status. */
#include "conf.h"

enum { MESSAGES = 12 };

static void expect_data(const int *data, int tag) {
  int i;
  for (i = 0; i < tag; i++) EXPECT(data[i] == 100 * tag + i);
}

int main(int argc, char **argv) {
  int size, data[MESSAGES + 1], flag, i;
  MPI_Status status, statuses[2];
  MPI_Request request, requests[2];
  MPI_Message message;

  conf_init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  if (conf_rank == 1) {
    /* Message `tag` carries `tag` ints, so each count identifies its message. */
    for (i = 1; i <= MESSAGES; i++) {
      int payload[MESSAGES + 1], j;
      for (j = 0; j < i; j++) payload[j] = 100 * i + j;
      MPI_Send(payload, i, MPI_INT, 0, i, MPI_COMM_WORLD);
    }
  } else if (conf_rank == 0) {
    conf_reset_status(&status);
    MPI_Recv(data, MESSAGES, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    EXPECT(status.MPI_SOURCE == 1 && status.MPI_TAG == 1);
    expect_data(data, 1);
    conf_print_status("recv", &status, MPI_INT);

    conf_reset_status(&status);
    MPI_Irecv(data, MESSAGES, MPI_INT, 1, 2, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, &status);
    EXPECT(status.MPI_SOURCE == 1 && status.MPI_TAG == 2 && request == MPI_REQUEST_NULL);
    expect_data(data, 2);
    conf_print_status("irecv+wait", &status, MPI_INT);

    MPI_Irecv(data, MESSAGES, MPI_INT, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &request);
    do {
      conf_reset_status(&status);
      MPI_Test(&request, &flag, &status);
    } while (!flag);
    EXPECT(status.MPI_SOURCE == 1 && status.MPI_TAG == 3);
    expect_data(data, 3);
    conf_print_status("irecv+test", &status, MPI_INT);

    conf_reset_status(&status);
    MPI_Probe(MPI_ANY_SOURCE, 4, MPI_COMM_WORLD, &status);
    EXPECT(status.MPI_SOURCE == 1 && status.MPI_TAG == 4);
    conf_print_status("probe", &status, MPI_INT);
    MPI_Recv(data, MESSAGES, MPI_INT, 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    expect_data(data, 4);

    do {
      conf_reset_status(&status);
      MPI_Iprobe(1, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status);
    } while (!flag);
    EXPECT(status.MPI_SOURCE == 1 && status.MPI_TAG == 5);
    conf_print_status("iprobe", &status, MPI_INT);
    conf_reset_status(&status);
    MPI_Recv(data, MESSAGES, MPI_INT, 1, 5, MPI_COMM_WORLD, &status);
    expect_data(data, 5);
    conf_print_status("recv after iprobe", &status, MPI_INT);

    conf_reset_status(&status);
    MPI_Mprobe(MPI_ANY_SOURCE, 6, MPI_COMM_WORLD, &message, &status);
    EXPECT(status.MPI_SOURCE == 1 && status.MPI_TAG == 6);
    conf_print_status("mprobe", &status, MPI_INT);
    conf_reset_status(&status);
    MPI_Mrecv(data, MESSAGES, MPI_INT, &message, &status);
    EXPECT(message == MPI_MESSAGE_NULL && status.MPI_SOURCE == 1 && status.MPI_TAG == 6);
    expect_data(data, 6);
    conf_print_status("mrecv", &status, MPI_INT);

    do {
      conf_reset_status(&status);
      MPI_Improbe(1, 7, MPI_COMM_WORLD, &flag, &message, &status);
    } while (!flag);
    EXPECT(status.MPI_SOURCE == 1 && status.MPI_TAG == 7);
    conf_print_status("improbe", &status, MPI_INT);
    MPI_Imrecv(data, MESSAGES, MPI_INT, &message, &request);
    conf_reset_status(&status);
    MPI_Wait(&request, &status);
    EXPECT(status.MPI_SOURCE == 1 && status.MPI_TAG == 7);
    expect_data(data, 7);
    conf_print_status("imrecv+wait", &status, MPI_INT);

    /* A completed receive seen through MPI_Request_get_status stays active until freed. */
    MPI_Irecv(data, MESSAGES, MPI_INT, 1, 8, MPI_COMM_WORLD, &request);
    do {
      conf_reset_status(&status);
      MPI_Request_get_status(request, &flag, &status);
    } while (!flag);
    EXPECT(request != MPI_REQUEST_NULL && status.MPI_SOURCE == 1 && status.MPI_TAG == 8);
    conf_print_status("request_get_status", &status, MPI_INT);
    conf_reset_status(&status);
    MPI_Request_get_status(request, &flag, &status);
    EXPECT(flag);
    conf_print_status("request_get_status again", &status, MPI_INT);
    conf_reset_status(&status);
    MPI_Wait(&request, &status);
    EXPECT(status.MPI_SOURCE == 1 && status.MPI_TAG == 8);
    expect_data(data, 8);
    conf_print_status("wait after request_get_status", &status, MPI_INT);

    MPI_Irecv(data, MESSAGES, MPI_INT, 1, 9, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    expect_data(data, 9);

    {
      int first[MESSAGES], second[MESSAGES];
      MPI_Irecv(first, MESSAGES, MPI_INT, 1, 10, MPI_COMM_WORLD, &requests[0]);
      MPI_Irecv(second, MESSAGES, MPI_INT, MPI_ANY_SOURCE, 11, MPI_COMM_WORLD, &requests[1]);
      MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
      expect_data(first, 10);
      expect_data(second, 11);
    }

    MPI_Irecv(data, MESSAGES, MPI_INT, 1, 12, MPI_COMM_WORLD, &requests[0]);
    requests[1] = MPI_REQUEST_NULL;
    conf_reset_status(&statuses[0]);
    conf_reset_status(&statuses[1]);
    MPI_Waitall(2, requests, statuses);
    expect_data(data, 12);
    conf_print_status("waitall[0]", &statuses[0], MPI_INT);
    conf_print_status("waitall[1] null request", &statuses[1], MPI_INT);
  }
  conf_check("status-fields");

  /* An exchange whose status is ignored. */
  {
    int right = (conf_rank + 1) % size, left = (conf_rank + size - 1) % size, out = conf_rank, in = -1;
    MPI_Sendrecv(&out, 1, MPI_INT, right, 50, &in, 1, MPI_INT, left, 50, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    EXPECT(in == left);
    conf_reset_status(&status);
    MPI_Sendrecv(&out, 1, MPI_INT, right, 51, &in, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    EXPECT(in == left && status.MPI_SOURCE == left && status.MPI_TAG == 51);
    conf_print_status("sendrecv", &status, MPI_INT);
  }
  conf_check("status-ignore");
  return conf_finish();
}
