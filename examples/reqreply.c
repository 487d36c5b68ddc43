/* reqreply: a client and its servers, a small request answered by a larger reply.
 *
 * usage: reqreply [n=1000 requests] [work=1000] [bytes=4096]
 *
 * Rank 0 is the client: it sends request i, a 4-byte number, to server 1 + i mod (p - 1) and
 * waits for that server's reply before sending the next request, as a program calling a remote
 * service does. The server computes `work` steps from the request, then answers with `bytes`
 * bytes (a multiple of 8) of data derived from them; the client folds each reply into the
 * checksum. One request is in flight at a time, so the reply always starts after its request
 * arrived: the pattern of a remote call, of a farm's task and result, whatever the sizes. With
 * one process the client computes every reply itself.
 */
#include "example_common.h"

enum { TAG_REQUEST = 1, TAG_REPLY = 2, TAG_STOP = 3 };

/* The reply to request `req`: `work` dependent multiply-xorshift steps (the compute step that
 * augur bench times for a model's compute.seconds_per_step, src/node/step.cpp, as in farm.c),
 * then `words` words that depend on their result and on their place. */
static void make_reply(uint32_t req, long work, uint64_t *reply, long words) {
  uint64_t x = mix64(req ^ 0x5bd1e995ULL);
  for (long s = 0; s < work; ++s) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    x ^= x >> 29;
  }
  for (long j = 0; j < words; ++j) reply[j] = x ^ ((uint64_t)j * 0x9e3779b97f4a7c15ULL);
}

/* Request req's part of the checksum: its words weighted by their place in the reply (odd
 * weights, so no word drops out) and the whole by the request. A multiply per word keeps the
 * client's own work small beside a message. */
static uint64_t fold(uint32_t req, const uint64_t *reply, long words) {
  uint64_t sum = 0;
  for (long j = 0; j < words; ++j) sum += (2 * (uint64_t)j + 1) * reply[j];
  return mix64(req) * sum;
}

static uint64_t client(long n, long work, uint64_t *reply, long words, int p) {
  uint64_t checksum = 0;
  for (long i = 0; i < n; ++i) {
    uint32_t req = (uint32_t)i;
    if (p == 1) {
      make_reply(req, work, reply, words);
    } else {
      int server = 1 + (int)(i % (p - 1));
      MPI_Send(&req, 1, MPI_UINT32_T, server, TAG_REQUEST, MPI_COMM_WORLD);
      MPI_Recv(reply, (int)words, MPI_UINT64_T, server, TAG_REPLY, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    checksum += fold(req, reply, words);
  }
  uint32_t none = 0;
  for (int server = 1; server < p; ++server)
    MPI_Send(&none, 1, MPI_UINT32_T, server, TAG_STOP, MPI_COMM_WORLD);
  return checksum;
}

static void server(long work, uint64_t *reply, long words) {
  for (;;) {
    uint32_t req;
    MPI_Status st;
    MPI_Recv(&req, 1, MPI_UINT32_T, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    if (st.MPI_TAG == TAG_STOP) return;
    make_reply(req, work, reply, words);
    MPI_Send(reply, (int)words, MPI_UINT64_T, 0, TAG_REPLY, MPI_COMM_WORLD);
  }
}

int main(int argc, char **argv) {
  int rank, p;
  start_mpi(&argc, &argv, &rank, &p);

  long n = arg_or(argc, argv, 1, 1000);
  long work = arg_or(argc, argv, 2, 1000);
  long bytes = arg_or(argc, argv, 3, 4096);
  if (n < 0 || work < 0 || bytes < 0 || bytes % 8 != 0 || n > 100000000L || bytes > (1L << 30))
    return usage(rank, "reqreply [n=1000 requests] [work=1000] [bytes=4096 (a multiple of 8)]");
  long words = bytes / 8;
  uint64_t *reply = alloc((size_t)words, sizeof *reply);

  double t0 = start_clock();

  uint64_t checksum = 0;
  if (rank == 0)
    checksum = client(n, work, reply, words, p);
  else
    server(work, reply, words);

  report("reqreply", t0, checksum, "n=%ld work=%ld bytes=%ld", n, work, bytes);
  free(reply);
  MPI_Finalize();
  return 0;
}
