/* example_common.h: the small helpers that every example program shares.
 *
 * Header-only (static inline) so that each example still builds from its single .c file, with
 * mpicc or with SimGrid's smpicc, and needs no extra library. C11.
 */
#ifndef AUGUR_EXAMPLE_COMMON_H
#define AUGUR_EXAMPLE_COMMON_H

#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One SplitMix64 step: a cheap deterministic hash. The examples use it to make their input
 * data (the same for every process count) and to give every index an unrelated 64-bit
 * checksum weight, so a checksum changes if any value moves to another place. */
static inline uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL; /* so that index 0 gets a nonzero weight too */
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

/* A deterministic double in [0, 1) for key: the top 53 bits of its hash. */
static inline double uniform(uint64_t key) { return (double)(mix64(key) >> 11) * 0x1.0p-53; }

/* The bit pattern of a double. Checksums over doubles must be exact integer sums; the values
 * they cover are computed by the same operations in the same order whatever the number of
 * processes, so their bits do not depend on p. */
static inline uint64_t bits(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}

/* Zeroed memory for count items (at least one, so empty blocks need no special case); stops the
 * whole job when memory runs out rather than letting one process crash. */
static inline void *alloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size);
  if (p == NULL) {
    fprintf(stderr, "out of memory (%zu x %zu bytes)\n", count, size);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return p;
}

/* argv[i] as a positive integer, def when absent, -1 when malformed. */
static inline long arg_or(int argc, char **argv, int i, long def) {
  if (i >= argc) return def;
  char *end = NULL;
  long v = strtol(argv[i], &end, 10);
  return (end == argv[i] || *end != '\0' || v <= 0) ? -1 : v;
}

/* Starts MPI and reports this process's rank and the number of processes in MPI_COMM_WORLD. */
static inline void start_mpi(int *argc, char ***argv, int *rank, int *p) {
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, p);
}

/* For bad arguments: rank 0 prints "usage: <text>", every process leaves MPI. Returns the exit
 * status, so main can end with `return usage(rank, "...");`. */
static inline int usage(int rank, const char *text) {
  if (rank == 0) fprintf(stderr, "usage: %s\n", text);
  MPI_Finalize();
  return 2;
}

/* Contiguous block partition of n items into parts blocks: the first item of block i. Block
 * sizes differ by at most one, and block i ends where block i + 1 starts. */
static inline long block_start(long n, long parts, long i) { return n * i / parts; }

/* The number of items in block i of the partition above. */
static inline long block_size(long n, long parts, long i) {
  return block_start(n, parts, i + 1) - block_start(n, parts, i);
}

/* Counts and displacements (in units of `per` elements per item) of the block partition of n
 * items over p processes, as MPI_Allgatherv and friends take them. */
static inline void block_counts(long n, int p, long per, int *counts, int *displs) {
  for (int r = 0; r < p; ++r) {
    displs[r] = (int)(per * block_start(n, p, r));
    counts[r] = (int)(per * block_start(n, p, r + 1)) - displs[r];
  }
}

/* The position-weighted checksum of a vector every process holds whole. */
static inline uint64_t vector_checksum(const double *x, long n) {
  uint64_t sum = 0;
  for (long i = 0; i < n; ++i) sum += mix64((uint64_t)i) * bits(x[i]);
  return sum;
}

/* The sum of every process's part of a checksum, on rank 0 of comm (0 elsewhere). Unsigned
 * sums wrap exactly, so the order of reduction does not change the result. */
static inline uint64_t checksum_to_root(uint64_t local, MPI_Comm comm) {
  uint64_t total = 0;
  MPI_Reduce(&local, &total, 1, MPI_UINT64_T, MPI_SUM, 0, comm);
  return total;
}

/* Lines up all processes and starts the clock; pairs with report(). */
static inline double start_clock(void) {
  MPI_Barrier(MPI_COMM_WORLD);
  return MPI_Wtime();
}

/* Waits for all processes, then rank 0 prints the one result line every example ends with:
 *   augur-example NAME <fields> p=P time=SECONDS checksum=HEX
 * fields is a printf format for the program's own parameters and results. Scripts and tests
 * read this line, so its shape must not change. */
static inline void report(const char *name, double t0, uint64_t checksum, const char *fields, ...) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t1 = MPI_Wtime();
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (rank != 0) return;
  va_list ap;
  va_start(ap, fields);
  printf("augur-example %s ", name);
  vprintf(fields, ap);
  va_end(ap);
  printf(" p=%d time=%.6f checksum=%016llx\n", p, t1 - t0, (unsigned long long)checksum);
}

#endif /* AUGUR_EXAMPLE_COMMON_H */
