/* A receiver that waits on the clock before it receives, the way MPICH's pt2pt/bsendpending does:
 * on each of two communicators rank 0 makes three buffered sends of BYTES (128 KiB) to rank 1, meets it
 * in a Sendrecv and detaches its buffer, which waits until the messages have left, while rank 1
 * spins on MPI_Wtime for SPIN seconds after the Sendrecv before it receives them. Rank 1 prints
 * the time the whole took by its MPI_Wtime, how often it read it, and the CPU seconds its spins
 * took; a wrong byte is printed.
 * Usage: clock_wait SPIN [BYTES] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { kMessages = 3 };

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static unsigned char pattern(int message, int i) { return (unsigned char)(0xff ^ ((2 * message + 1) * i & 0xff)); }

int main(int argc, char** argv) {
  const double spin = argc > 1 ? atof(argv[1]) : 0.1;
  const int bytes = argc > 2 ? atoi(argv[2]) : 128 * 1024;
  int rank, c, m, i, size = kMessages * (MPI_BSEND_OVERHEAD + bytes);
  long readings = 0;
  double spin_cpu = 0;
  unsigned char* data = malloc(kMessages * bytes);
  unsigned char* buffer = malloc(size);
  MPI_Comm comms[2];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  comms[0] = MPI_COMM_WORLD;
  MPI_Comm_dup(MPI_COMM_WORLD, &comms[1]);
  const double start = MPI_Wtime();
  for (c = 0; c < 2; ++c) {
    if (rank == 0) {
      MPI_Buffer_attach(buffer, size);
      for (m = 0; m < kMessages; ++m) {
        for (i = 0; i < bytes; ++i) data[m * bytes + i] = pattern(m, i);
        MPI_Bsend(data + m * bytes, bytes, MPI_BYTE, 1, 0, comms[c]);
      }
      MPI_Sendrecv(NULL, 0, MPI_BYTE, 1, 10, NULL, 0, MPI_BYTE, 1, 10, comms[c], MPI_STATUS_IGNORE);
      MPI_Buffer_detach(&buffer, &size);
    } else if (rank == 1) {
      MPI_Sendrecv(NULL, 0, MPI_BYTE, 0, 10, NULL, 0, MPI_BYTE, 0, 10, comms[c], MPI_STATUS_IGNORE);
      const double cpu0 = cpu_seconds(), t0 = MPI_Wtime();
      while (MPI_Wtime() - t0 < spin) ++readings;
      spin_cpu += cpu_seconds() - cpu0;
      for (m = 0; m < kMessages; ++m) MPI_Recv(data + m * bytes, bytes, MPI_BYTE, 0, 0, comms[c], MPI_STATUS_IGNORE);
      for (m = 0; m < kMessages; ++m)
        for (i = 0; i < bytes; ++i)
          if (data[m * bytes + i] != pattern(m, i)) {
            printf("wrong byte %d of message %d\n", i, m);
            i = bytes;
          }
    }
  }
  if (rank == 1) printf("waited=%.6f readings=%ld spin_cpu=%.6f\n", MPI_Wtime() - start, readings, spin_cpu);
  MPI_Comm_free(&comms[1]);
  free(buffer);
  free(data);
  MPI_Finalize();
  return 0;
}
