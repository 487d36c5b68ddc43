/* Communicator and group creation at odd sizes: split with colors and MPI_UNDEFINED, create,
   create_group, dup; messages on each new communicator carry its own ranks. A communicator is
   freed with a receive still pending on it, which must still complete. */
#include "conf.h"

int main(int argc, char **argv) {
  int size, rank, i, in, out, sub_rank, sub_size, flag;
  MPI_Comm split, reversed, created, grouped, dup, doomed;
  MPI_Group world_group, odd_group;
  MPI_Status status;

  conf_init(&argc, &argv);
  rank = conf_rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  /* Colors 0 and 1 alternate; the last rank opts out. */
  MPI_Comm_split(MPI_COMM_WORLD, rank == size - 1 ? MPI_UNDEFINED : rank % 2, rank, &split);
  if (rank == size - 1) {
    EXPECT(split == MPI_COMM_NULL);
  } else {
    MPI_Comm_rank(split, &sub_rank);
    MPI_Comm_size(split, &sub_size);
    EXPECT(sub_rank == rank / 2 && sub_size == (size - 1 + 1 - rank % 2) / 2);
    /* A ring on the new communicator: sources are its ranks, not the world's. */
    out = rank;
    MPI_Sendrecv(&out, 1, MPI_INT, (sub_rank + 1) % sub_size, 1, &in, 1, MPI_INT, MPI_ANY_SOURCE, 1, split, &status);
    EXPECT(status.MPI_SOURCE == (sub_rank + sub_size - 1) % sub_size);
    EXPECT(in == 2 * ((sub_rank + sub_size - 1) % sub_size) + rank % 2);
    MPI_Comm_free(&split);
  }
  conf_check("split-undefined");

  /* Keys in reverse: new rank order is the world's reversed. */
  MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &reversed);
  MPI_Comm_rank(reversed, &sub_rank);
  EXPECT(sub_rank == size - 1 - rank);
  if (sub_rank == 0) {
    for (i = 1; i < size; i++) {
      MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, 2, reversed, &status);
      EXPECT(in == size - 1 - status.MPI_SOURCE);
    }
  } else {
    MPI_Send(&rank, 1, MPI_INT, 0, 2, reversed);
  }
  MPI_Comm_free(&reversed);
  conf_check("split-reversed");

  /* The odd world ranks, by MPI_Comm_create (everyone calls) and MPI_Comm_create_group (only
     members call). */
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  {
    int odd[64], n = 0;
    for (i = 1; i < size && n < 64; i += 2) odd[n++] = i;
    MPI_Group_incl(world_group, n, odd, &odd_group);
  }
  MPI_Comm_create(MPI_COMM_WORLD, odd_group, &created);
  EXPECT((created == MPI_COMM_NULL) == (rank % 2 == 0));
  grouped = MPI_COMM_NULL;
  if (rank % 2 == 1) MPI_Comm_create_group(MPI_COMM_WORLD, odd_group, 5, &grouped);
  if (rank % 2 == 1) {
    int sum;
    MPI_Comm_rank(grouped, &sub_rank);
    EXPECT(sub_rank == rank / 2);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, created);
    MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_INT, MPI_MAX, grouped);
    EXPECT(sum == (size / 2) * (size / 2));
    MPI_Comm_free(&created);
    MPI_Comm_free(&grouped);
  }
  MPI_Group_free(&odd_group);
  MPI_Group_free(&world_group);
  conf_check("create-and-create-group");

  /* A duplicate matches nothing sent on the original. */
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  if (rank == 0) {
    out = 1;
    MPI_Send(&out, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
    out = 2;
    MPI_Send(&out, 1, MPI_INT, 1, 3, dup);
  } else if (rank == 1) {
    MPI_Recv(&in, 1, MPI_INT, 0, 3, dup, MPI_STATUS_IGNORE);
    EXPECT(in == 2);
    MPI_Recv(&in, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    EXPECT(in == 1);
  }
  MPI_Comm_free(&dup);
  conf_check("dup");

  /* Rank 1 frees a communicator with its receive still posted; rank 0 sends on it only then. */
  MPI_Comm_dup(MPI_COMM_WORLD, &doomed);
  if (rank == 1) {
    MPI_Request request;
    in = -1;
    MPI_Irecv(&in, 1, MPI_INT, 0, 4, doomed, &request);
    MPI_Comm_free(&doomed);
    EXPECT(doomed == MPI_COMM_NULL);
    out = 0;
    MPI_Send(&out, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
    conf_reset_status(&status);
    MPI_Wait(&request, &status);
    MPI_Get_count(&status, MPI_INT, &flag);
    EXPECT(in == 44 && status.MPI_SOURCE == 0 && status.MPI_TAG == 4 && flag == 1);
  } else if (rank == 0) {
    MPI_Recv(&in, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    out = 44;
    MPI_Send(&out, 1, MPI_INT, 1, 4, doomed);
    MPI_Comm_free(&doomed);
  } else {
    MPI_Comm_free(&doomed);
  }
  conf_check("free-with-pending-receive");
  return conf_finish();
}
