/* The status a null request gives: the standard's empty status (MPI_ANY_SOURCE, MPI_ANY_TAG,
   MPI_SUCCESS, count 0, not cancelled) from MPI_Request_get_status; MPI_Wait and MPI_Test on
   it print the fields the standard defines for them (their MPI_ERROR it leaves undefined).
   Open MPI alone leaves MPI_Request_get_status's MPI_ERROR as the program set it, so this
   program's output under augur is compared with null_status.expected, the standard's. */
#include "conf.h"

static void print_empty(const char *what, int flag, const MPI_Status *status, int with_error) {
  int count = -1, cancelled = -1;
  char source[32], tag[32], error[32];
  MPI_Get_count(status, MPI_INT, &count);
  MPI_Test_cancelled(status, &cancelled);
  if (status->MPI_SOURCE == MPI_ANY_SOURCE) snprintf(source, sizeof source, "MPI_ANY_SOURCE");
  else snprintf(source, sizeof source, "%d", status->MPI_SOURCE);
  if (status->MPI_TAG == MPI_ANY_TAG) snprintf(tag, sizeof tag, "MPI_ANY_TAG");
  else snprintf(tag, sizeof tag, "%d", status->MPI_TAG);
  if (status->MPI_ERROR == MPI_SUCCESS) snprintf(error, sizeof error, "MPI_SUCCESS");
  else if (status->MPI_ERROR == CONF_SENTINEL) snprintf(error, sizeof error, "untouched");
  else snprintf(error, sizeof error, "%d", status->MPI_ERROR);
  if (with_error)
    conf_print("%s: flag=%d source=%s tag=%s error=%s count=%d cancelled=%d\n", what, flag, source, tag, error, count,
               cancelled);
  else
    conf_print("%s: flag=%d source=%s tag=%s count=%d cancelled=%d\n", what, flag, source, tag, count, cancelled);
  EXPECT(flag && status->MPI_SOURCE == MPI_ANY_SOURCE && status->MPI_TAG == MPI_ANY_TAG && count == 0 && !cancelled);
}

int main(int argc, char **argv) {
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Status status;
  int flag = -1;

  conf_init(&argc, &argv);

  conf_reset_status(&status);
  MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &status);
  print_empty("request_get_status(MPI_REQUEST_NULL)", flag, &status, 1);
  /* MPI_STATUS_IGNORE is left alone. */
  flag = -1;
  MPI_Request_get_status(MPI_REQUEST_NULL, &flag, MPI_STATUS_IGNORE);
  EXPECT(flag == 1);

  conf_reset_status(&status);
  MPI_Wait(&request, &status);
  print_empty("wait(MPI_REQUEST_NULL)", 1, &status, 0);

  conf_reset_status(&status);
  flag = -1;
  MPI_Test(&request, &flag, &status);
  print_empty("test(MPI_REQUEST_NULL)", flag, &status, 0);

  conf_check("null-status");
  return conf_finish();
}
