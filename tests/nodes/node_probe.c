/* What an emulated machine of several nodes looks like from inside MPI (tests/nodes, docs/
 * emulated-nodes.md): each rank's host name and how many ranks share its node
 * (MPI_Comm_split_type SHARED), then a plain ping-pong between world rank 0 and PEER at each
 * SIZE: one untimed round trip, then BLOCKS blocks of round trips, each block's half round trip
 * per message; the median block is printed, one line a size. The other ranks sleep meanwhile:
 *   node_probe [PEER [SIZE...]]
 *   pingpong 0-2 8 B: 5.123e-06 s one way (fastest block 4.9e-06 s)
 * PEER defaults to the first rank on another node than rank 0, else rank 1. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { BLOCKS = 15 };

static int compare(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* Round trips a block: enough to take about a millisecond at the link's speed, at least 2. */
static int rounds_for(long bytes) { return bytes >= (1L << 20) ? 2 : bytes >= (1L << 16) ? 4 : 32; }

/* Ranks outside the pair wait here asleep, so that they take no processor from the pair. */
static void sleeping_barrier(void) {
  MPI_Request request;
  int done = 0;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  for (MPI_Test(&request, &done, MPI_STATUS_IGNORE); !done; MPI_Test(&request, &done, MPI_STATUS_IGNORE)) {
    struct timespec pause = {0, 200000};
    nanosleep(&pause, NULL);
  }
}

/* The median block's half round trip; the fastest block's in `fastest`. */
static double pingpong(int rank, int peer, long bytes, char* buf, MPI_Comm pair, double* fastest) {
  double halves[BLOCKS];
  int rounds = rounds_for(bytes);
  for (int block = -1; block < BLOCKS; ++block) {
    int n = block < 0 ? 1 : rounds;
    MPI_Barrier(pair);
    double start = MPI_Wtime();
    for (int i = 0; i < n; ++i) {
      if (rank == 0) {
        MPI_Send(buf, (int)bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
        MPI_Recv(buf, (int)bytes, MPI_BYTE, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else if (rank == peer) {
        MPI_Recv(buf, (int)bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, (int)bytes, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
      }
    }
    if (block >= 0) halves[block] = (MPI_Wtime() - start) / (2.0 * n);
  }
  qsort(halves, BLOCKS, sizeof halves[0], compare);
  *fastest = halves[0];
  return halves[BLOCKS / 2];
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0, length = 0, node_ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char host[MPI_MAX_PROCESSOR_NAME] = {0};
  MPI_Get_processor_name(host, &length);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &node_ranks);
  MPI_Comm_free(&node);

  char* hosts = rank == 0 ? calloc((size_t)size, MPI_MAX_PROCESSOR_NAME) : NULL;
  int* counts = rank == 0 ? calloc((size_t)size, sizeof(int)) : NULL;
  MPI_Gather(host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, hosts, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
  MPI_Gather(&node_ranks, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int peer = size > 1 ? 1 : 0;
  if (rank == 0) {
    for (int r = 0; r < size; ++r)
      printf("rank %d host %s node_ranks %d\n", r, hosts + (size_t)r * MPI_MAX_PROCESSOR_NAME, counts[r]);
    for (int r = size - 1; r > 0; --r)
      if (strcmp(hosts + (size_t)r * MPI_MAX_PROCESSOR_NAME, host) != 0) peer = r;
    if (argc > 1) peer = atoi(argv[1]);
  }
  MPI_Bcast(&peer, 1, MPI_INT, 0, MPI_COMM_WORLD);
  long largest = 0;
  for (int i = 2; i < argc; ++i)
    if (atol(argv[i]) > largest) largest = atol(argv[i]);
  char* buf = calloc((size_t)largest + 1, 1);
  int valid = peer > 0 && peer < size;
  MPI_Comm pair;
  MPI_Comm_split(MPI_COMM_WORLD, valid && (rank == 0 || rank == peer) ? 0 : MPI_UNDEFINED, rank, &pair);
  for (int i = 2; i < argc && pair != MPI_COMM_NULL; ++i) {
    long bytes = atol(argv[i]);
    double fastest = 0;
    double t = pingpong(rank, peer, bytes, buf, pair, &fastest);
    if (rank == 0) printf("pingpong 0-%d %ld B: %.6g s one way (fastest block %.6g s)\n", peer, bytes, t, fastest);
  }
  if (pair != MPI_COMM_NULL) MPI_Comm_free(&pair);
  sleeping_barrier();
  fflush(stdout);
  free(buf);
  free(hosts);
  free(counts);
  MPI_Finalize();
  return 0;
}
