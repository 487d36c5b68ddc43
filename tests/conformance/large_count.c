/* One message of more than INT_MAX bytes (270,000,000 doubles, 2.16 GB), counted in elements of
   eight doubles so that the count fits in an int while the byte count does not. The status must
   hold the program's counts however the shim frames the message. Ranks 0 and 1 only: about
   4.4 GB in all. */
#include "conf.h"

#include <stdlib.h>

#define DOUBLES 270000000L
#define PER_ELEMENT 8

static double expected(long i) { return (double)i + 0.25; }

int main(int argc, char **argv) {
  MPI_Datatype octet;
  MPI_Status status;
  double *data = NULL;
  long i;
  const int elements = (int)(DOUBLES / PER_ELEMENT);

  conf_init(&argc, &argv);
  MPI_Type_contiguous(PER_ELEMENT, MPI_DOUBLE, &octet);
  MPI_Type_commit(&octet);

  if (conf_rank <= 1) {
    data = malloc(DOUBLES * sizeof *data);
    EXPECT(data != NULL);
  }
  if (conf_rank == 1 && data) {
    for (i = 0; i < DOUBLES; i++) data[i] = expected(i);
    MPI_Send(data, elements, octet, 0, 3, MPI_COMM_WORLD);
  } else if (conf_rank == 0 && data) {
    int count, count_double, elems;
    MPI_Count elements_x, size_x;
    data[0] = data[DOUBLES - 1] = -1.0;

    MPI_Probe(1, 3, MPI_COMM_WORLD, &status);
    MPI_Get_count(&status, octet, &count);
    MPI_Get_elements_x(&status, octet, &elements_x);
    conf_print("probe: count=%d elements_x=%lld\n", count, (long long)elements_x);
    EXPECT(count == elements && elements_x == DOUBLES);

    MPI_Recv(data, elements, octet, 1, 3, MPI_COMM_WORLD, &status);
    MPI_Get_count(&status, octet, &count);
    MPI_Get_count(&status, MPI_DOUBLE, &count_double);
    MPI_Get_elements(&status, octet, &elems);
    MPI_Get_elements_x(&status, octet, &elements_x);
    MPI_Type_size_x(octet, &size_x);
    conf_print("recv: source=%d tag=%d count=%d doubles=%d elements=%d elements_x=%lld bytes=%lld\n", status.MPI_SOURCE,
               status.MPI_TAG, count, count_double, elems, (long long)elements_x, (long long)(count * size_x));
    EXPECT(count == elements && elements_x == DOUBLES && elems == (int)DOUBLES);
    /* A sparse sample with both ends: a shifted or truncated copy fails it. */
    for (i = 0; i < DOUBLES; i += 999983) EXPECT(data[i] == expected(i));
    EXPECT(data[DOUBLES - 1] == expected(DOUBLES - 1));
  }
  free(data);
  conf_check("large-count");
  MPI_Type_free(&octet);
  return conf_finish();
}
