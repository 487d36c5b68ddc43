/* Matched probes: a message taken by MPI_Mprobe or MPI_Improbe belongs to its handle and is
   never matched by a later receive or probe; handles are received out of probe order, with
   MPI_Mrecv and MPI_Imrecv, into the program's datatype. Ranks 1 and 2 send to rank 0 (more
   ranks idle). */
#include "conf.h"

#include <stdlib.h>

enum { LENGTH = 3000 }; /* above the eager limit once, below it otherwise */

static int first_value(int source, int tag, int serial) { return 10000 * source + 100 * tag + serial; }

int main(int argc, char **argv) {
  int size, senders, s, i, flag, count;
  MPI_Status status;

  conf_init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  senders = size > 2 ? 2 : 1;

  if (conf_rank >= 1 && conf_rank <= senders) {
    /* Tag 1 twice (a short and a long message), then tag 2. */
    int *out = malloc(LENGTH * sizeof *out);
    for (i = 0; i < LENGTH; i++) out[i] = first_value(conf_rank, 1, 0) + i;
    MPI_Send(out, 4, MPI_INT, 0, 1, MPI_COMM_WORLD);
    for (i = 0; i < LENGTH; i++) out[i] = first_value(conf_rank, 1, 1) + i;
    MPI_Send(out, LENGTH, MPI_INT, 0, 1, MPI_COMM_WORLD);
    out[0] = first_value(conf_rank, 2, 0);
    MPI_Send(out, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
    free(out);
  } else if (conf_rank == 0) {
    MPI_Message messages[2], message;
    int sources[2], *in = malloc(LENGTH * sizeof *in), counts[2];
    MPI_Request requests[2];
    MPI_Datatype pair;

    /* The first tag-1 message of each sender, last sender first. */
    for (s = 0; s < senders; s++) {
      MPI_Mprobe(senders - s, 1, MPI_COMM_WORLD, &messages[s], &status);
      sources[s] = status.MPI_SOURCE;
      MPI_Get_count(&status, MPI_INT, &counts[s]);
      EXPECT(counts[s] == 4 && sources[s] == senders - s);
    }
    /* A wildcard receive now gets only the second tag-1 messages; which sender comes first
       varies, so each is checked by its source. */
    for (s = 0; s < senders; s++) {
      MPI_Recv(in, LENGTH, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &status);
      MPI_Get_count(&status, MPI_INT, &count);
      EXPECT(count == LENGTH && in[0] == first_value(status.MPI_SOURCE, 1, 1) &&
             in[LENGTH - 1] == first_value(status.MPI_SOURCE, 1, 1) + LENGTH - 1);
    }
    /* The probed messages, last probed first, into pairs of ints. */
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    for (s = senders - 1; s >= 0; s--) {
      MPI_Mrecv(in, 2, pair, &messages[s], &status);
      MPI_Get_count(&status, pair, &count);
      EXPECT(messages[s] == MPI_MESSAGE_NULL && count == 2 && status.MPI_SOURCE == sources[s] && status.MPI_TAG == 1);
      EXPECT(in[0] == first_value(sources[s], 1, 0) && in[3] == first_value(sources[s], 1, 0) + 3);
    }
    MPI_Type_free(&pair);
    conf_print("mprobe: %d sender(s), first counts %d, pair count 2\n", senders, counts[0]);

    /* Tag 2 from any source through Improbe and Imrecv, completed together. */
    {
      int values[2] = {-1, -1}, found = 0;
      while (found < senders) {
        MPI_Improbe(MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &flag, &message, &status);
        if (!flag) continue;
        EXPECT(status.MPI_SOURCE >= 1 && status.MPI_SOURCE <= senders);
        MPI_Imrecv(&values[status.MPI_SOURCE - 1], 1, MPI_INT, &message, &requests[found]);
        found++;
      }
      MPI_Waitall(senders, requests, MPI_STATUSES_IGNORE);
      for (s = 0; s < senders; s++) EXPECT(values[s] == first_value(s + 1, 2, 0));
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
      EXPECT(!flag);
      conf_print("improbe: %d message(s), none left\n", found);
    }
    free(in);
  }
  conf_check("mprobe");
  return conf_finish();
}
