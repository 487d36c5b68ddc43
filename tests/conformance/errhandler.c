/* Errors returned rather than fatal: with MPI_ERRORS_RETURN on a communicator, erroneous calls
   return a code whose class is the standard's, the program carries on, and a truncated
   receive reports MPI_ERR_TRUNCATE in its return value or, among several, in its status. */
#include "conf.h"

static const char *class_name(int code) {
  int class;
  MPI_Error_class(code, &class);
  switch (class) {
    case MPI_SUCCESS: return "MPI_SUCCESS";
    case MPI_ERR_RANK: return "MPI_ERR_RANK";
    case MPI_ERR_TAG: return "MPI_ERR_TAG";
    case MPI_ERR_COUNT: return "MPI_ERR_COUNT";
    case MPI_ERR_TYPE: return "MPI_ERR_TYPE";
    case MPI_ERR_COMM: return "MPI_ERR_COMM";
    case MPI_ERR_TRUNCATE: return "MPI_ERR_TRUNCATE";
    case MPI_ERR_IN_STATUS: return "MPI_ERR_IN_STATUS";
    case MPI_ERR_PENDING: return "MPI_ERR_PENDING";
    case MPI_ERR_ARG: return "MPI_ERR_ARG";
    case MPI_ERR_REQUEST: return "MPI_ERR_REQUEST";
    default: return "another class";
  }
}

static void report(const char *what, int code, int expected_class) {
  int class;
  MPI_Error_class(code, &class);
  EXPECT(class == expected_class);
  conf_print("%s: %s\n", what, class_name(code));
}

int main(int argc, char **argv) {
  int size, data[8] = {0}, code;
  MPI_Comm comm;
  MPI_Status status, statuses[2];
  MPI_Request request, requests[2];
  MPI_Errhandler handler;

  conf_init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  /* MPICH 4.0 raises errors of request completion on MPI_COMM_WORLD, not the request's
     communicator. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_get_errhandler(comm, &handler);
  EXPECT(handler == MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&handler);

  if (conf_rank == 0) {
    report("send to rank size", MPI_Send(data, 1, MPI_INT, size, 1, comm), MPI_ERR_RANK);
    report("isend to rank -5", MPI_Isend(data, 1, MPI_INT, -5, 1, comm, &request), MPI_ERR_RANK);
    report("recv with tag -3", MPI_Recv(data, 1, MPI_INT, 1, -3, comm, &status), MPI_ERR_TAG);
    report("send of count -1", MPI_Send(data, -1, MPI_INT, 1, 1, comm), MPI_ERR_COUNT);
    report("send of a null datatype", MPI_Send(data, 1, MPI_DATATYPE_NULL, 1, 1, comm), MPI_ERR_TYPE);
    report("probe from rank size", MPI_Probe(size, 0, comm, &status), MPI_ERR_RANK);
  }
  conf_check("errors-return");

  /* Truncation: eight ints into room for four. */
  if (conf_rank == 1) {
    int i;
    for (i = 0; i < 8; i++) data[i] = i;
    for (i = 0; i < 4; i++) MPI_Send(data, 8, MPI_INT, 0, 10 + i, comm);
    MPI_Send(data, 2, MPI_INT, 0, 14, comm);
  } else if (conf_rank == 0) {
    int small[4], other[8], count;
    /* What a truncating receive leaves in its status varies between libraries: printed. */
    conf_reset_status(&status);
    code = MPI_Recv(small, 4, MPI_INT, 1, 10, comm, &status);
    report("recv truncated", code, MPI_ERR_TRUNCATE);
    conf_print("  its status: source=%d tag=%d error=%s\n", status.MPI_SOURCE, status.MPI_TAG,
               status.MPI_ERROR == CONF_SENTINEL ? "untouched" : class_name(status.MPI_ERROR));

    MPI_Irecv(small, 4, MPI_INT, 1, 11, comm, &request);
    conf_reset_status(&status);
    code = MPI_Wait(&request, &status);
    report("wait truncated", code, MPI_ERR_TRUNCATE);
    conf_print("  its status: source=%d tag=%d error=%s\n", status.MPI_SOURCE, status.MPI_TAG,
               status.MPI_ERROR == CONF_SENTINEL ? "untouched" : class_name(status.MPI_ERROR));

    /* One truncated and one fine among several: MPI_ERR_IN_STATUS and per-request errors. */
    MPI_Irecv(small, 4, MPI_INT, 1, 12, comm, &requests[0]);
    MPI_Irecv(other, 8, MPI_INT, 1, 14, comm, &requests[1]);
    conf_reset_status(&statuses[0]);
    conf_reset_status(&statuses[1]);
    code = MPI_Waitall(2, requests, statuses);
    report("waitall with one truncated", code, MPI_ERR_IN_STATUS);
    report("  its status[0]", statuses[0].MPI_ERROR, MPI_ERR_TRUNCATE);
    /* The other request may be completed (MPI_SUCCESS) or left pending (MPI_ERR_PENDING, as
       MPICH does when it stops at the first error, depending on when the message came). */
    EXPECT(statuses[1].MPI_ERROR == MPI_SUCCESS || statuses[1].MPI_ERROR == MPI_ERR_PENDING);
    if (statuses[1].MPI_ERROR == MPI_ERR_PENDING) MPI_Wait(&requests[1], &statuses[1]);
    EXPECT(requests[1] == MPI_REQUEST_NULL);
    MPI_Get_count(&statuses[1], MPI_INT, &count);
    EXPECT(count == 2 && statuses[1].MPI_TAG == 14 && other[1] == 1);

    /* Probe sees the whole message; a receive sized by it is not truncated. */
    MPI_Probe(1, 13, comm, &status);
    MPI_Get_count(&status, MPI_INT, &count);
    EXPECT(count == 8);
    report("recv sized by probe", MPI_Recv(other, count, MPI_INT, 1, 13, comm, MPI_STATUS_IGNORE), MPI_SUCCESS);
  }
  conf_check("truncation");

  /* The program goes on after errors: a normal exchange on the same communicator. */
  {
    int right = (conf_rank + 1) % size, left = (conf_rank + size - 1) % size, in = -1;
    code = MPI_Sendrecv(&conf_rank, 1, MPI_INT, right, 20, &in, 1, MPI_INT, left, 20, comm, MPI_STATUS_IGNORE);
    EXPECT(code == MPI_SUCCESS && in == left);
  }
  conf_check("after-errors");
  MPI_Comm_free(&comm);
  return conf_finish();
}
