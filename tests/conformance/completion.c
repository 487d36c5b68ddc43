/* MPI_Waitany, MPI_Testany, MPI_Waitsome, MPI_Testsome, MPI_Testall and MPI_Waitall over
   arrays mixing MPI_REQUEST_NULL, inactive persistent requests and live receives: the null and
   inactive entries are skipped, all-inactive arrays give MPI_UNDEFINED, and indices and
   statuses are the program's. Rank 1 sends, rank 0 receives. */
#include "conf.h"

enum { N = 5 };

/* Entry 3 is always null; the others are the receives on tags 3, 9 (persistent), 4 and 5. */
static int expect_some(int outcount, const int *indices, const MPI_Status *statuses) {
  static const int tags[N] = {3, 9, 4, -1, 5};
  int k;
  if (outcount == MPI_UNDEFINED) return 0;
  for (k = 0; k < outcount; k++) {
    EXPECT(indices[k] >= 0 && indices[k] < N && indices[k] != 3);
    if (indices[k] >= 0 && indices[k] < N) EXPECT(statuses[k].MPI_SOURCE == 1 && statuses[k].MPI_TAG == tags[indices[k]]);
  }
  return outcount;
}

int main(int argc, char **argv) {
  int a = -1, b = -1, c = -1, index, outcount, flag, indices[N];
  MPI_Request requests[N];
  MPI_Status status, statuses[N];

  conf_init(&argc, &argv);

  if (conf_rank == 0) {
    int got[N] = {0}, done;
    /* [null, inactive persistent, recv tag 1, null, recv tag 2] */
    requests[0] = MPI_REQUEST_NULL;
    MPI_Recv_init(&c, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, &requests[1]);
    requests[3] = MPI_REQUEST_NULL;

    /* Nothing active: every call returns at once. */
    requests[2] = requests[4] = MPI_REQUEST_NULL;
    conf_reset_status(&status);
    MPI_Waitany(N, requests, &index, &status);
    EXPECT(index == MPI_UNDEFINED && status.MPI_SOURCE == MPI_ANY_SOURCE && status.MPI_TAG == MPI_ANY_TAG);
    conf_print("waitany, none active: index=%s\n", index == MPI_UNDEFINED ? "UNDEFINED" : "defined");
    conf_print_status("waitany, none active", &status, MPI_INT);
    conf_reset_status(&status);
    MPI_Testany(N, requests, &index, &flag, &status);
    EXPECT(flag && index == MPI_UNDEFINED);
    conf_print("testany, none active: flag=%d index=%s\n", flag, index == MPI_UNDEFINED ? "UNDEFINED" : "defined");
    MPI_Waitsome(N, requests, &outcount, indices, statuses);
    EXPECT(outcount == MPI_UNDEFINED);
    MPI_Testsome(N, requests, &outcount, indices, statuses);
    EXPECT(outcount == MPI_UNDEFINED);
    MPI_Testall(N, requests, &flag, statuses);
    EXPECT(flag && requests[1] != MPI_REQUEST_NULL);

    MPI_Irecv(&a, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &requests[2]);
    MPI_Irecv(&b, 1, MPI_INT, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &requests[4]);
    MPI_Send(&a, 0, MPI_INT, 1, 0, MPI_COMM_WORLD); /* go */
    /* Tag 2 is sent first, then tag 1 after an acknowledgement, so the order is fixed. */
    conf_reset_status(&status);
    MPI_Waitany(N, requests, &index, &status);
    EXPECT(index == 4 && b == 20 && status.MPI_TAG == 2 && status.MPI_SOURCE == 1 && requests[4] == MPI_REQUEST_NULL);
    conf_print("waitany: index=%d\n", index);
    conf_print_status("waitany", &status, MPI_INT);
    MPI_Send(&a, 0, MPI_INT, 1, 0, MPI_COMM_WORLD);
    do {
      conf_reset_status(&status);
      MPI_Testany(N, requests, &index, &flag, &status);
    } while (!flag);
    EXPECT(index == 2 && a == 10 && status.MPI_TAG == 1);
    conf_print("testany: index=%d\n", index);
    conf_print_status("testany", &status, MPI_INT);
    EXPECT(requests[1] != MPI_REQUEST_NULL && requests[2] == MPI_REQUEST_NULL);

    /* Three receives and the persistent one started; completed with Waitsome and Testsome. */
    MPI_Irecv(&got[0], 1, MPI_INT, 1, 3, MPI_COMM_WORLD, &requests[0]);
    MPI_Start(&requests[1]);
    MPI_Irecv(&got[2], 1, MPI_INT, 1, 4, MPI_COMM_WORLD, &requests[2]);
    MPI_Irecv(&got[4], 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &requests[4]);
    MPI_Send(&a, 0, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Waitsome(N, requests, &outcount, indices, statuses);
    EXPECT(outcount != MPI_UNDEFINED && outcount >= 1);
    done = expect_some(outcount, indices, statuses);
    while (done < 4) {
      MPI_Testsome(N, requests, &outcount, indices, statuses);
      EXPECT(outcount != MPI_UNDEFINED);
      if (outcount == MPI_UNDEFINED) break;
      done += expect_some(outcount, indices, statuses);
    }
    EXPECT(got[0] == 30 && c == 90 && got[2] == 40 && got[4] == 50);
    EXPECT(requests[0] == MPI_REQUEST_NULL && requests[1] != MPI_REQUEST_NULL && requests[4] == MPI_REQUEST_NULL);
    MPI_Waitsome(N, requests, &outcount, indices, statuses);
    EXPECT(outcount == MPI_UNDEFINED);
    conf_print("waitsome after all done: outcount=%s\n", outcount == MPI_UNDEFINED ? "UNDEFINED" : "defined");
    MPI_Request_free(&requests[1]);
  } else if (conf_rank == 1) {
    int v, go;
    MPI_Recv(&go, 0, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    v = 20;
    MPI_Send(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
    MPI_Recv(&go, 0, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    v = 10;
    MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    MPI_Recv(&go, 0, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    v = 50;
    MPI_Send(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
    v = 40;
    MPI_Send(&v, 1, MPI_INT, 0, 4, MPI_COMM_WORLD);
    v = 90;
    MPI_Send(&v, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
    v = 30;
    MPI_Send(&v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
  }
  conf_check("completion");
  return conf_finish();
}
