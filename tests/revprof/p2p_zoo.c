/* Exercises every point-to-point form the reverse profiler intercepts, checking the data it
 * receives, so a test can assert that the shim changes no result and deadlocks nothing. Ranks
 * pair up in a ring; run with any number of processes >= 2. Prints "zoo ok" on success. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int fail(const char* what, int rank) {
  fprintf(stderr, "rank %d: wrong data after %s\n", rank, what);
  MPI_Abort(MPI_COMM_WORLD, 1);
  return 1;
}

static int received_count(const MPI_Status* st, MPI_Datatype type) {
  int count = -1;
  MPI_Get_count(st, type, &count);
  return count;
}

/* Each check aborts on a wrong value; the sum of what arrived goes into the program's output. */
static double envelope_forms(int rank, int left, int right, const double* out, double* in, int n) {
  MPI_Status st;
  double sum = 0;
  int i;

  /* Shorter than the receive: the count is what was sent (a small and a large message). */
  int sizes[2] = {5, n - 1};
  for (i = 0; i < 2; ++i) {
    MPI_Sendrecv(out, sizes[i], MPI_DOUBLE, right, 20, in, n, MPI_DOUBLE, left, 20, MPI_COMM_WORLD, &st);
    if (received_count(&st, MPI_DOUBLE) != sizes[i] || received_count(&st, MPI_BYTE) != 8 * sizes[i])
      fail("count of a short message", rank);
    sum += in[sizes[i] - 1];
  }

  /* A strided datatype (every other double) sent, received contiguous, and the reverse. */
  MPI_Datatype every_other;
  MPI_Type_vector(n / 2, 1, 2, MPI_DOUBLE, &every_other);
  MPI_Type_commit(&every_other);
  MPI_Sendrecv(out, 1, every_other, right, 21, in, n / 2, MPI_DOUBLE, left, 21, MPI_COMM_WORLD, &st);
  if (in[n / 2 - 1] != left * 1000.0 + 2 * (n / 2 - 1) || received_count(&st, MPI_DOUBLE) != n / 2)
    fail("strided send", rank);
  for (i = 0; i < n; ++i) in[i] = -1;
  MPI_Sendrecv(out, n / 2, MPI_DOUBLE, right, 22, in, 1, every_other, left, 22, MPI_COMM_WORLD, &st);
  if (in[2] != left * 1000.0 + 1 || in[1] != -1 || received_count(&st, every_other) != 1)
    fail("strided receive", rank);
  MPI_Type_free(&every_other);
  sum += in[2] + in[n - 2];

  /* Buffered sends, blocking, non-blocking and persistent, into a buffer with no spare byte. */
  int packed = 0;
  MPI_Pack_size(8, MPI_DOUBLE, MPI_COMM_WORLD, &packed);
  int bytes = packed + MPI_BSEND_OVERHEAD;
  char* attached = malloc(bytes);
  MPI_Buffer_attach(attached, bytes);
  MPI_Request r;
  MPI_Bsend(out, 8, MPI_DOUBLE, right, 23, MPI_COMM_WORLD);
  MPI_Recv(in, 8, MPI_DOUBLE, left, 23, MPI_COMM_WORLD, &st);
  sum += in[7];
  MPI_Ibsend(out + 1, 8, MPI_DOUBLE, right, 24, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Recv(in, 8, MPI_DOUBLE, left, 24, MPI_COMM_WORLD, &st);
  sum += in[7];
  MPI_Bsend_init(out + 2, 8, MPI_DOUBLE, right, 25, MPI_COMM_WORLD, &r);
  MPI_Start(&r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Request_free(&r);
  MPI_Recv(in, 8, MPI_DOUBLE, left, 25, MPI_COMM_WORLD, &st);
  if (in[7] != left * 1000.0 + 9) fail("bsend", rank);
  sum += in[7];
  MPI_Buffer_detach(&attached, &bytes);
  free(attached);

  /* Sendrecv_replace around the ring, then Iprobe's count. */
  for (i = 0; i < n; ++i) in[i] = out[i];
  MPI_Sendrecv_replace(in, n, MPI_DOUBLE, right, 26, left, 26, MPI_COMM_WORLD, &st);
  if (in[n - 1] != left * 1000.0 + n - 1 || received_count(&st, MPI_DOUBLE) != n) fail("sendrecv_replace", rank);
  sum += in[n - 1];
  MPI_Isend(out, 11, MPI_DOUBLE, right, 27, MPI_COMM_WORLD, &r);
  int flag = 0;
  while (!flag) MPI_Iprobe(left, 27, MPI_COMM_WORLD, &flag, &st);
  if (received_count(&st, MPI_DOUBLE) != 11) fail("iprobe count", rank);
  MPI_Recv(in, 11, MPI_DOUBLE, left, 27, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&r, MPI_STATUS_IGNORE);

  /* An Isend the program frees at once still arrives. */
  MPI_Isend(out + 3, 4, MPI_DOUBLE, right, 28, MPI_COMM_WORLD, &r);
  MPI_Request_free(&r);
  MPI_Recv(in, 4, MPI_DOUBLE, left, 28, MPI_COMM_WORLD, &st);
  if (in[3] != left * 1000.0 + 6) fail("freed isend", rank);
  return sum + in[3];
}

int main(int argc, char** argv) {
  int rank, size, i, n = argc > 1 ? atoi(argv[1]) : 3000; /* above the shim's staging limit */
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  double* out = malloc(n * sizeof(double));
  double* in = malloc(n * sizeof(double));
  for (i = 0; i < n; ++i) out[i] = rank * 1000.0 + i;

  /* Sendrecv around the ring, large enough to pass any eager limit. */
  MPI_Sendrecv(out, n, MPI_DOUBLE, right, 1, in, n, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (in[n - 1] != left * 1000.0 + n - 1) return fail("sendrecv", rank);

  /* Issend / Irecv / Waitall. */
  MPI_Request req[2];
  MPI_Irecv(in, n, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &req[0]);
  MPI_Issend(out, n, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  if (in[0] != left * 1000.0) return fail("issend", rank);

  /* Ssend ordered by parity so it cannot deadlock; Recv with MPI_ANY_TAG. */
  if (rank % 2 == 0) {
    MPI_Ssend(out, 10, MPI_DOUBLE, right, 3, MPI_COMM_WORLD);
    MPI_Recv(in, 10, MPI_DOUBLE, left, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(in, 10, MPI_DOUBLE, left, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Ssend(out, 10, MPI_DOUBLE, right, 3, MPI_COMM_WORLD);
  }
  if (in[9] != left * 1000.0 + 9) return fail("ssend", rank);

  /* Persistent requests started three times, completed with Waitsome / Testall. */
  MPI_Request pers[2];
  MPI_Recv_init(in, n, MPI_DOUBLE, left, 4, MPI_COMM_WORLD, &pers[0]);
  MPI_Send_init(out, n, MPI_DOUBLE, right, 4, MPI_COMM_WORLD, &pers[1]);
  for (int round = 0; round < 3; ++round) {
    MPI_Startall(2, pers);
    int done = 0, outcount, idx[2], flag = 0;
    while (done < 2) {
      MPI_Waitsome(2, pers, &outcount, idx, MPI_STATUSES_IGNORE);
      if (outcount == MPI_UNDEFINED) break;
      done += outcount;
    }
    MPI_Testall(2, pers, &flag, MPI_STATUSES_IGNORE);
    if (in[5] != left * 1000.0 + 5) return fail("persistent", rank);
  }
  MPI_Request_free(&pers[0]);
  MPI_Request_free(&pers[1]);

  /* Probe then receive; Mprobe then Mrecv; Iprobe/Test polling. */
  MPI_Status st;
  MPI_Request r;
  MPI_Isend(out, 7, MPI_DOUBLE, right, 5, MPI_COMM_WORLD, &r);
  MPI_Probe(left, 5, MPI_COMM_WORLD, &st);
  int count;
  MPI_Get_count(&st, MPI_DOUBLE, &count);
  if (count != 7) return fail("probe", rank);
  MPI_Recv(in, 7, MPI_DOUBLE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Isend(out, 3, MPI_DOUBLE, right, 6, MPI_COMM_WORLD, &r);
  MPI_Message msg;
  MPI_Mprobe(MPI_ANY_SOURCE, 6, MPI_COMM_WORLD, &msg, &st);
  MPI_Mrecv(in, 3, MPI_DOUBLE, &msg, MPI_STATUS_IGNORE);
  if (in[2] != st.MPI_SOURCE * 1000.0 + 2) return fail("mrecv", rank);
  int flag = 0;
  while (!flag) MPI_Test(&r, &flag, MPI_STATUS_IGNORE);

  /* Testany and Testsome polling loops over receives from both neighbours (wildcard tag). */
  double got[4] = {0, 0, 0, 0};
  MPI_Request poll[4];
  MPI_Irecv(&got[0], 1, MPI_DOUBLE, left, MPI_ANY_TAG, MPI_COMM_WORLD, &poll[0]);
  MPI_Irecv(&got[1], 1, MPI_DOUBLE, right, 8, MPI_COMM_WORLD, &poll[1]);
  MPI_Isend(&out[11], 1, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &poll[2]);
  MPI_Isend(&out[12], 1, MPI_DOUBLE, left, 8, MPI_COMM_WORLD, &poll[3]);
  for (int pending = 4; pending > 0;) {
    int index = MPI_UNDEFINED, done = 0;
    MPI_Testany(4, poll, &index, &done, MPI_STATUS_IGNORE);
    if (done && index != MPI_UNDEFINED) --pending;
  }
  MPI_Irecv(&got[2], 1, MPI_DOUBLE, MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &poll[0]);
  MPI_Irecv(&got[3], 1, MPI_DOUBLE, MPI_ANY_SOURCE, 10, MPI_COMM_WORLD, &poll[1]);
  MPI_Isend(&out[13], 1, MPI_DOUBLE, right, 9, MPI_COMM_WORLD, &poll[2]);
  MPI_Isend(&out[14], 1, MPI_DOUBLE, left, 10, MPI_COMM_WORLD, &poll[3]);
  for (int pending = 4; pending > 0;) {
    int outcount = 0, indices[4];
    MPI_Testsome(4, poll, &outcount, indices, MPI_STATUSES_IGNORE);
    if (outcount != MPI_UNDEFINED) pending -= outcount;
  }
  if (got[0] != left * 1000.0 + 11 || got[1] != right * 1000.0 + 12) return fail("testany", rank);
  if (size == 2 && got[2] + got[3] != left * 1000.0 + 13 + right * 1000.0 + 14) return fail("testsome", rank);

  /* Counts a program reads from statuses, and data in every layout: a strided datatype sent
   * into a contiguous buffer and back, messages shorter than the receive, buffered sends into an
   * attached buffer sized for the data alone, Sendrecv_replace, and a freed Isend. */
  double extra = envelope_forms(rank, left, right, out, in, n);

  /* MPI_PROC_NULL is a no-op. */
  MPI_Send(out, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  MPI_Recv(in, 1, MPI_DOUBLE, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st);

  /* Non-blocking collectives completed by Wait, on a split communicator. */
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  double local = rank, total = 0;
  MPI_Iallreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, half, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  double expect = 0;
  for (i = rank % 2; i < size; i += 2) expect += i;
  if (total != expect) return fail("iallreduce", rank);
  MPI_Comm_free(&half);

  /* What every rank received, summed on rank 0: a run under the shim must print the same. */
  double mine = in[0] + in[2] + in[n - 1] + got[0] + got[1] + got[2] + got[3] + total + extra, all = 0;
  MPI_Reduce(&mine, &all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  double t = MPI_Wtime();
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) printf("zoo ok received=%.17g wtime=%.9g\n", all, t);
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
