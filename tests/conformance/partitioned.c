/* Partitioned communication (MPI 4): MPI_Psend_init, MPI_Precv_init, MPI_Pready(_range/_list)
   and MPI_Parrived, started twice. Precv_init from MPI_ANY_SOURCE is tried with errors
   returned and used only if the library takes it. Before MPI 4 (Open MPI 4.1) the program
   prints "skipped" in every run. */
#include "conf.h"

enum { PARTITIONS = 4, PER_PARTITION = 8 };

int main(int argc, char **argv) {
  conf_init(&argc, &argv);
#if MPI_VERSION >= 4
  {
    int data[PARTITIONS * PER_PARTITION], round, p, i, flag, any_source = 0;
    MPI_Request request;
    MPI_Status status;

    if (conf_rank == 0) {
      MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
      any_source = MPI_Precv_init(data, PARTITIONS, PER_PARTITION, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD,
                                  MPI_INFO_NULL, &request) == MPI_SUCCESS;
      MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
      conf_print("precv_init from any source: %s\n", any_source ? "accepted" : "refused");
      if (!any_source)
        MPI_Precv_init(data, PARTITIONS, PER_PARTITION, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &request);
      for (round = 0; round < 2; round++) {
        for (i = 0; i < PARTITIONS * PER_PARTITION; i++) data[i] = -1;
        MPI_Start(&request);
        MPI_Barrier(MPI_COMM_WORLD);
        /* Partitions arrive in any order; each is checked once it has. */
        for (p = PARTITIONS - 1; p >= 0; p--) {
          do MPI_Parrived(request, p, &flag);
          while (!flag);
          for (i = 0; i < PER_PARTITION; i++) EXPECT(data[p * PER_PARTITION + i] == 1000 * round + p * PER_PARTITION + i);
        }
        conf_reset_status(&status);
        MPI_Wait(&request, &status);
        EXPECT(status.MPI_SOURCE == 1 && status.MPI_TAG == 5);
        conf_print("round %d: source=%d tag=%d\n", round, status.MPI_SOURCE, status.MPI_TAG);
      }
      MPI_Request_free(&request);
    } else if (conf_rank == 1) {
      MPI_Psend_init(data, PARTITIONS, PER_PARTITION, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &request);
      for (round = 0; round < 2; round++) {
        for (i = 0; i < PARTITIONS * PER_PARTITION; i++) data[i] = 1000 * round + i;
        MPI_Start(&request);
        MPI_Barrier(MPI_COMM_WORLD);
        if (round == 0) {
          for (p = PARTITIONS - 1; p >= 0; p--) MPI_Pready(p, request);
        } else {
          int list[2] = {3, 0};
          MPI_Pready_range(1, 2, request);
          MPI_Pready_list(2, list, request);
        }
        MPI_Wait(&request, MPI_STATUS_IGNORE);
      }
      MPI_Request_free(&request);
    } else {
      for (round = 0; round < 2; round++) MPI_Barrier(MPI_COMM_WORLD);
    }
    conf_check("partitioned");
  }
#else
  conf_print("skipped partitioned: MPI %d.%d has no partitioned communication\n", MPI_VERSION, MPI_SUBVERSION);
#endif
  return conf_finish();
}
