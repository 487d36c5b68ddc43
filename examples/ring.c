/* ring: a block passed around a ring of processes with MPI_Sendrecv, buffers swapped each step.
 *
 * usage: ring [steps=1000] [bytes=65536]
 *
 * Every process holds a block of `bytes` bytes (a multiple of 8). Each step it sends its block
 * to the next rank and receives the previous rank's into its other buffer, in one MPI_Sendrecv,
 * then the two buffers swap roles: what arrived is what leaves next, as a shift or a systolic
 * loop does. After the exchange every process adds one to one word of the block it holds, the
 * same word everywhere, so every block goes through the same changes whatever the number of
 * processes and the checksum (rank 0's final block) does not depend on p. With one process the
 * ring is a process sending to itself.
 *
 * The program is almost all communication: it measures what a program's MPI_Sendrecv of a
 * block costs when the data it sends arrived the step before, which a benchmark sending one
 * buffer again and again does not see.
 */
#include "example_common.h"

int main(int argc, char **argv) {
  int rank, p;
  start_mpi(&argc, &argv, &rank, &p);

  long steps = arg_or(argc, argv, 1, 1000);
  long bytes = arg_or(argc, argv, 2, 65536);
  if (steps < 0 || bytes < 0 || bytes % 8 != 0 || steps > 100000000L || bytes > (1L << 30))
    return usage(rank, "ring [steps=1000] [bytes=65536 (a multiple of 8)]");
  long words = bytes / 8;
  double *block = alloc((size_t)words, sizeof *block);
  double *incoming = alloc((size_t)words, sizeof *incoming);
  for (long j = 0; j < words; ++j) block[j] = uniform((uint64_t)j);
  int next = (rank + 1) % p, previous = (rank + p - 1) % p;

  double t0 = start_clock();
  for (long s = 0; s < steps; ++s) {
    MPI_Sendrecv(block, (int)words, MPI_DOUBLE, next, 0, incoming, (int)words, MPI_DOUBLE, previous, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double *held = incoming;
    incoming = block;
    block = held;
    block[s % words] += 1.0;
  }

  uint64_t checksum = rank == 0 ? vector_checksum(block, words) : 0;
  report("ring", t0, checksum, "steps=%ld bytes=%ld", steps, bytes);
  free(block);
  free(incoming);
  MPI_Finalize();
  return 0;
}
