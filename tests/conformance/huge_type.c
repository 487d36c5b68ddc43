/* One element of a datatype of more than 2 GiB (2^31 + 8 bytes, a contiguous run of 8-byte
   blocks of MPI_BYTE), sent and received between ranks 0 and 1: MPI_Type_size cannot say its
   size in an int, MPI_Type_size_x can. The status must count one element and 2^31 + 8 bytes
   however the shim frames the message. Ranks 0 and 1 only: about 4.3 GB in all. */
#include "conf.h"

#include <stdlib.h>

#define BLOCK 8
#define BLOCKS ((1L << 28) + 1)
#define BYTES (BLOCKS * BLOCK)

/* Varies along the message, so a shifted or truncated copy fails the check. */
static unsigned char expected(long i) { return (unsigned char)(i ^ (i >> 13)); }

int main(int argc, char **argv) {
  MPI_Datatype block, huge;
  MPI_Status status;
  unsigned char *data = NULL;
  long i;
  int size_int = 0;
  MPI_Count size_x = 0;

  conf_init(&argc, &argv);
  MPI_Type_contiguous(BLOCK, MPI_BYTE, &block);
  MPI_Type_contiguous((int)BLOCKS, block, &huge);
  MPI_Type_commit(&huge);
  MPI_Type_size(huge, &size_int);
  MPI_Type_size_x(huge, &size_x);
  conf_print("type: size=%s size_x=%lld\n", size_int == MPI_UNDEFINED ? "MPI_UNDEFINED" : "a number",
             (long long)size_x);
  EXPECT(size_x == BYTES);

  if (conf_rank <= 1) {
    data = malloc(BYTES);
    EXPECT(data != NULL);
  }
  if (conf_rank == 1 && data) {
    for (i = 0; i < BYTES; i++) data[i] = expected(i);
    MPI_Send(data, 1, huge, 0, 5, MPI_COMM_WORLD);
  } else if (conf_rank == 0 && data) {
    int count = -1;
    MPI_Count bytes = 0;
    data[0] = (unsigned char)~expected(0);
    data[BYTES - 1] = (unsigned char)~expected(BYTES - 1);
    MPI_Recv(data, 1, huge, 1, 5, MPI_COMM_WORLD, &status);
    MPI_Get_count(&status, huge, &count);
    MPI_Get_elements_x(&status, MPI_BYTE, &bytes);
    conf_print("recv: source=%d tag=%d count=%d bytes=%lld\n", status.MPI_SOURCE, status.MPI_TAG, count,
               (long long)bytes);
    EXPECT(count == 1 && bytes == BYTES);
    /* A sparse sample with both ends: a shifted or truncated copy fails it. */
    for (i = 0; i < BYTES; i += 999983) EXPECT(data[i] == expected(i));
    EXPECT(data[BYTES - 1] == expected(BYTES - 1));
  }
  free(data);
  conf_check("huge-type");
  MPI_Type_free(&huge);
  MPI_Type_free(&block);
  return conf_finish();
}
