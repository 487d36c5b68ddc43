/* Intercommunicators: even and odd world ranks form two groups (of unequal size at an odd
   process count) joined by MPI_Intercomm_create. Point-to-point across (status sources are
   remote ranks), MPI_Allreduce and MPI_Bcast across (MPI_ROOT / MPI_PROC_NULL), then
   MPI_Intercomm_merge. */
#include "conf.h"

int main(int argc, char **argv) {
  int size, color, local_rank, local_size, remote_size, is_inter, i, value, sum, in;
  MPI_Comm local, inter, merged;
  MPI_Status status;

  conf_init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  color = conf_rank % 2;
  MPI_Comm_split(MPI_COMM_WORLD, color, conf_rank, &local);
  MPI_Comm_rank(local, &local_rank);
  MPI_Comm_size(local, &local_size);
  /* Each group's leader is its lowest world rank: 0 for the evens, 1 for the odds. */
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - color, 77, &inter);
  MPI_Comm_test_inter(inter, &is_inter);
  MPI_Comm_remote_size(inter, &remote_size);
  EXPECT(is_inter && local_size == (size + 1 - color) / 2 && remote_size == size - local_size);
  conf_print("evens %d, odds %d\n", local_size, remote_size);
  conf_check("intercomm-create");

  /* Every rank sends its local rank to remote rank 0; remote rank 0 of each side receives from
     any source and replies to each sender. */
  value = 100 * color + local_rank;
  MPI_Send(&value, 1, MPI_INT, 0, 1, inter);
  if (local_rank == 0) {
    int seen = 0;
    for (i = 0; i < remote_size; i++) {
      MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, 1, inter, &status);
      EXPECT(in == 100 * (1 - color) + status.MPI_SOURCE && status.MPI_TAG == 1);
      seen |= 1 << status.MPI_SOURCE;
      in += 1000;
      MPI_Send(&in, 1, MPI_INT, status.MPI_SOURCE, 2, inter);
    }
    EXPECT(seen == (1 << remote_size) - 1);
  }
  MPI_Recv(&in, 1, MPI_INT, 0, 2, inter, &status);
  EXPECT(in == value + 1000 && status.MPI_SOURCE == 0);
  conf_check("intercomm-p2p");

  /* An allreduce across gives each side the sum over the other. */
  value = color ? 1000 + local_rank : local_rank + 1;
  MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, inter);
  {
    int expected = 0;
    for (i = 0; i < remote_size; i++) expected += color ? i + 1 : 1000 + i;
    EXPECT(sum == expected);
  }
  /* The evens' rank 0 broadcasts to the odds. */
  if (color == 0) {
    value = 4242;
    MPI_Bcast(&value, 1, MPI_INT, local_rank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
  } else {
    value = -1;
    MPI_Bcast(&value, 1, MPI_INT, 0, inter);
    EXPECT(value == 4242);
  }
  MPI_Barrier(inter);
  conf_check("intercomm-collectives");

  /* Merged with the odds first: their ranks come before the evens'. */
  MPI_Intercomm_merge(inter, color == 0, &merged);
  {
    int merged_rank, merged_size;
    MPI_Comm_rank(merged, &merged_rank);
    MPI_Comm_size(merged, &merged_size);
    EXPECT(merged_size == size);
    EXPECT(merged_rank == (color ? local_rank : remote_size + local_rank));
    MPI_Allreduce(&conf_rank, &sum, 1, MPI_INT, MPI_SUM, merged);
    EXPECT(sum == size * (size - 1) / 2);
  }
  conf_check("intercomm-merge");

  MPI_Comm_free(&merged);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
  return conf_finish();
}
