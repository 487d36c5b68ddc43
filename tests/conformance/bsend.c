/* Buffered sends. The attached buffer holds exactly the program's messages (MPI_BSEND_OVERHEAD
   each); the receiver posts its receives only after the sender has started detaching, so the
   messages are still pending at detach, which must wait for them. The sender then overwrites
   the detached buffer, which must no longer matter. A buffer too small for a message makes
   MPI_Bsend fail with MPI_ERR_BUFFER. */
#include "conf.h"

#include <stdlib.h>
#include <string.h>

enum { MESSAGES = 4, LENGTH = 20000 }; /* 80 KB each: above the libraries' eager limits */

static int value(int message, int i) { return message * 1000003 + i; }

int main(int argc, char **argv) {
  int message, i, size, pack_size;
  char *buffer;
  MPI_Comm trial;

  conf_init(&argc, &argv);
  MPI_Pack_size(LENGTH, MPI_INT, MPI_COMM_WORLD, &pack_size);
  size = MESSAGES * (pack_size + MPI_BSEND_OVERHEAD);
  buffer = malloc(size);

  if (conf_rank == 0) {
    int *out = malloc(LENGTH * sizeof *out), go = 1, detached_size = 0;
    void *detached = NULL;
    MPI_Request request;
    MPI_Buffer_attach(buffer, size);
    for (message = 0; message < MESSAGES; message++) {
      for (i = 0; i < LENGTH; i++) out[i] = value(message, i);
      MPI_Bsend(out, LENGTH, MPI_INT, 1, message, MPI_COMM_WORLD);
    }
    /* The program's buffer may be reused once MPI_Bsend returns. */
    memset(out, 0, LENGTH * sizeof *out);
    MPI_Isend(&go, 1, MPI_INT, 1, 100, MPI_COMM_WORLD, &request);
    MPI_Buffer_detach(&detached, &detached_size);
    EXPECT(detached == buffer && detached_size == size);
    memset(buffer, 0xff, size);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    free(out);
  } else if (conf_rank == 1) {
    int *in = malloc(LENGTH * sizeof *in), go = 0, count;
    MPI_Status status;
    MPI_Recv(&go, 1, MPI_INT, 0, 100, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    /* Last message first: each was sent on its own tag. */
    for (message = MESSAGES - 1; message >= 0; message--) {
      MPI_Recv(in, LENGTH, MPI_INT, 0, message, MPI_COMM_WORLD, &status);
      MPI_Get_count(&status, MPI_INT, &count);
      EXPECT(count == LENGTH && status.MPI_TAG == message);
      for (i = 0; i < LENGTH; i += 997) EXPECT(in[i] == value(message, i));
      EXPECT(in[LENGTH - 1] == value(message, LENGTH - 1));
    }
    free(in);
  }
  conf_check("bsend-detach-pending");

  /* Attach again; buffered sends of every kind, received in order with a wildcard tag. */
  if (conf_rank == 0) {
    int small[3] = {1, 2, 3}, detached_size;
    void *detached;
    MPI_Request requests[2];
    MPI_Buffer_attach(buffer, size);
    MPI_Ibsend(small, 3, MPI_INT, 1, 7, MPI_COMM_WORLD, &requests[0]);
    MPI_Bsend_init(small, 3, MPI_INT, 1, 8, MPI_COMM_WORLD, &requests[1]);
    MPI_Start(&requests[1]);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    small[0] = 4;
    MPI_Start(&requests[1]);
    MPI_Wait(&requests[1], MPI_STATUS_IGNORE);
    MPI_Request_free(&requests[1]);
    MPI_Buffer_detach(&detached, &detached_size);
    EXPECT(detached == buffer && detached_size == size);
  } else if (conf_rank == 1) {
    int in[3], expected_tags[3] = {7, 8, 8}, firsts[3] = {1, 1, 4};
    MPI_Status status;
    for (i = 0; i < 3; i++) {
      MPI_Recv(in, 3, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
      EXPECT(status.MPI_TAG == expected_tags[i] && in[0] == firsts[i] && in[2] == 3);
    }
  }
  conf_check("bsend-kinds");

  /* Whether the library refuses is printed, and the receiver is told whether to expect the
     message. The attempt has a communicator of its own: Open MPI 4.1 loses the failed send's
     place in the message order, and nothing later on that communicator from the same sender
     would ever match. */
  MPI_Comm_dup(MPI_COMM_WORLD, &trial);
  MPI_Comm_set_errhandler(trial, MPI_ERRORS_RETURN);
  if (conf_rank == 0) {
    char tiny[MPI_BSEND_OVERHEAD + 64];
    int *out = calloc(LENGTH, sizeof *out), error, class, sent, detached_size;
    void *detached;
    MPI_Buffer_attach(tiny, sizeof tiny);
    error = MPI_Bsend(out, LENGTH, MPI_INT, 1, 9, trial);
    MPI_Error_class(error, &class);
    conf_print("bsend beyond the buffer: %s\n",
               class == MPI_ERR_BUFFER ? "MPI_ERR_BUFFER" : class == MPI_SUCCESS ? "MPI_SUCCESS" : "another error");
    MPI_Buffer_detach(&detached, &detached_size);
    sent = class == MPI_SUCCESS;
    MPI_Send(&sent, 1, MPI_INT, 1, 10, MPI_COMM_WORLD);
    free(out);
  } else if (conf_rank == 1) {
    int *in = malloc(LENGTH * sizeof *in), count, sent;
    MPI_Status status;
    MPI_Recv(&sent, 1, MPI_INT, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (sent) {
      MPI_Recv(in, LENGTH, MPI_INT, 0, 9, trial, &status);
      MPI_Get_count(&status, MPI_INT, &count);
      EXPECT(count == LENGTH);
    }
    free(in);
  }
  MPI_Comm_free(&trial);
  conf_check("bsend-buffer-too-small");
  free(buffer);
  return conf_finish();
}
