/* What a correct program sees must not change under the reverse profiler. Each case below is a
 * behaviour the shim once changed; the program prints what it sees ("result: ..." lines, rank 0
 * or the receiving rank only) so a test can compare a plain run with a run under `augur run`.
 *
 *   transparency CASE     with CASE one of:
 *   status-error   single-completion calls leave MPI_ERROR as the program set it
 *   get-status     MPI_Request_get_status on a completed receive counts the program's data
 *   large-count    a message over INT_MAX bytes: MPI_Get_count and MPI_Get_elements_x
 *   partitioned    MPI_Psend_init/MPI_Precv_init with MPI_ANY_SOURCE (MPI 4; "skipped" before)
 *   bsend-detach   buffered sends still pending at MPI_Buffer_detach reach a late receiver
 *   free-pending   a communicator freed with a receive still pending on it
 *   thread-multiple  MPI_THREAD_MULTIPLE: two threads a rank exchange with Isend, Irecv and
 *                    Waitall round a ring and reduce, at once, each on a communicator of its own
 *   refused-counts   a collective MPI refuses (negative counts, errors returned) and the
 *                    program going on: the shim cannot price the refused call
 *   no-finalize      an erroneous program that ends without MPI_Finalize
 *   more-calls       the v- and w-forms of the non-blocking collectives, communicators made by
 *                    MPI_Comm_dup_with_info, MPI_Comm_create_group and MPI_Intercomm_merge, and
 *                    a neighbourhood allgatherv: results, and an allreduce on each new one
 *   large-count-c    MPI 4's large-count calls (MPI_Send_c …), one message of 2^31 + 3 bytes
 *                    ("skipped" before MPI 4)
 *   isendrecv        MPI 4's MPI_Isendrecv round a ring, and MPI_Isendrecv_replace against a
 *                    partner's MPI_Send and MPI_Recv ("skipped" before MPI 4)
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SENTINEL 12345

static int rank;

static void result(const char* what, long long value) {
  printf("result: %s %lld\n", what, value);
  fflush(stdout);
}

static void status_error(void) {
  int data[2] = {1, 2};
  MPI_Status st;
  if (rank == 0) {
    for (int i = 0; i < 7; ++i) MPI_Send(data, 2, MPI_INT, 1, i, MPI_COMM_WORLD);
    MPI_Sendrecv(data, 2, MPI_INT, 1, 7, data, 2, MPI_INT, 1, 7, MPI_COMM_WORLD, &st);
    return;
  }
  if (rank != 1) return;
  MPI_Request req;
  MPI_Message msg;
  int flag = 0;
  st.MPI_ERROR = SENTINEL;
  MPI_Recv(data, 2, MPI_INT, 0, 0, MPI_COMM_WORLD, &st);
  result("recv error", st.MPI_ERROR);
  st.MPI_ERROR = SENTINEL;
  MPI_Probe(0, 1, MPI_COMM_WORLD, &st);
  result("probe error", st.MPI_ERROR);
  do {
    st.MPI_ERROR = SENTINEL;
    MPI_Iprobe(0, 1, MPI_COMM_WORLD, &flag, &st);
  } while (!flag);
  result("iprobe error", st.MPI_ERROR);
  MPI_Recv(data, 2, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  st.MPI_ERROR = SENTINEL;
  MPI_Mprobe(0, 2, MPI_COMM_WORLD, &msg, &st);
  result("mprobe error", st.MPI_ERROR);
  st.MPI_ERROR = SENTINEL;
  MPI_Mrecv(data, 2, MPI_INT, &msg, &st);
  result("mrecv error", st.MPI_ERROR);
  do {
    st.MPI_ERROR = SENTINEL;
    MPI_Improbe(0, 3, MPI_COMM_WORLD, &flag, &msg, &st);
  } while (!flag);
  result("improbe error", st.MPI_ERROR);
  MPI_Mrecv(data, 2, MPI_INT, &msg, MPI_STATUS_IGNORE);
  MPI_Irecv(data, 2, MPI_INT, 0, 4, MPI_COMM_WORLD, &req);
  st.MPI_ERROR = SENTINEL;
  MPI_Wait(&req, &st);
  result("wait error", st.MPI_ERROR);
  MPI_Irecv(data, 2, MPI_INT, 0, 5, MPI_COMM_WORLD, &req);
  do {
    st.MPI_ERROR = SENTINEL;
    MPI_Test(&req, &flag, &st);
  } while (!flag);
  result("test error", st.MPI_ERROR);
  int index = 0;
  MPI_Irecv(data, 2, MPI_INT, 0, 6, MPI_COMM_WORLD, &req);
  st.MPI_ERROR = SENTINEL;
  MPI_Waitany(1, &req, &index, &st);
  result("waitany error", st.MPI_ERROR);
  st.MPI_ERROR = SENTINEL;
  MPI_Sendrecv(data, 2, MPI_INT, 0, 7, data, 2, MPI_INT, 0, 7, MPI_COMM_WORLD, &st);
  result("sendrecv error", st.MPI_ERROR);
}

static void get_status(void) {
  int data[2] = {3, 4};
  if (rank == 0) MPI_Send(data, 2, MPI_INT, 1, 0, MPI_COMM_WORLD);
  if (rank != 1) return;
  MPI_Request req;
  MPI_Status st;
  int flag = 0, count = -1;
  MPI_Irecv(data, 2, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
  while (!flag) MPI_Request_get_status(req, &flag, &st);
  MPI_Get_count(&st, MPI_INT, &count);
  result("get_status count", count);
  MPI_Wait(&req, &st);
  MPI_Get_count(&st, MPI_INT, &count);
  result("wait count", count);
  result("data", data[0] * 10 + data[1]);
}

static void large_count(void) {
  const int n = 270000000; /* 2.16e9 bytes of doubles: past INT_MAX bytes, a count that fits int */
  double* buf = malloc((size_t)n * sizeof(double));
  if (!buf) {
    result("large-count skipped", 0);
    return;
  }
  memset(buf, 0, (size_t)n * sizeof(double));
  if (rank == 0) {
    buf[0] = 1;
    buf[n - 1] = 2;
    MPI_Send(buf, n, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Status st;
    int count = -1;
    MPI_Count elements = -1;
    MPI_Recv(buf, n, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_DOUBLE, &count);
    MPI_Get_elements_x(&st, MPI_DOUBLE, &elements);
    result("count", count);
    result("elements", elements);
    result("ends", (long long)(buf[0] * 10 + buf[n - 1]));
  }
  free(buf);
}

static void partitioned(void) {
#if MPI_VERSION >= 4
  enum { parts = 4, per_part = 8 };
  int data[parts * per_part];
  MPI_Request req;
  MPI_Status st;
  if (rank == 0) {
    for (int i = 0; i < parts * per_part; ++i) data[i] = i;
    MPI_Psend_init(data, parts, per_part, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    MPI_Start(&req);
    for (int p = 0; p < parts; ++p) MPI_Pready(p, req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Request_free(&req);
  } else if (rank == 1) {
    /* MPICH 4.0 refuses MPI_ANY_SOURCE here; then the sender's rank stands in, in both runs. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (MPI_Precv_init(data, parts, per_part, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &req) !=
        MPI_SUCCESS)
      MPI_Precv_init(data, parts, per_part, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Start(&req);
    MPI_Wait(&req, &st);
    result("source", st.MPI_SOURCE);
    result("tag", st.MPI_TAG);
    result("last", data[parts * per_part - 1]);
    MPI_Request_free(&req);
  }
#else
  if (rank == 0) result("partitioned skipped", MPI_VERSION);
#endif
}

static void bsend_detach(void) {
  const int n = 1 << 18; /* 1 MiB of ints: past the eager limit, so it waits for its receiver */
  int* data = calloc(n, sizeof(int));
  if (rank == 0) {
    int size = n * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
    void* attached = malloc(size);
    MPI_Buffer_attach(attached, size);
    data[n - 1] = 7;
    MPI_Bsend(data, n, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Buffer_detach(&attached, &size);
    free(attached);
  } else if (rank == 1) {
    sleep(2); /* longer than any grace period the shim may give pending sends at MPI_Finalize */
    MPI_Recv(data, n, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    result("received", data[n - 1]);
  }
  free(data);
}

static void free_pending(void) {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  int value = 0;
  if (rank == 1) {
    MPI_Request req;
    MPI_Irecv(&value, 1, MPI_INT, 0, 0, comm, &req);
    MPI_Comm_free(&comm);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    result("received", value);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    value = 42;
    /* Synchronous: the receiver answers on the freed communicator's side as well. */
    if (rank == 0) MPI_Ssend(&value, 1, MPI_INT, 1, 0, comm);
    MPI_Comm_free(&comm);
  }
}

/* MPI refuses negative receive counts on every rank (MPI_ERR_COUNT) and the program goes on. */
static void refused_counts(void) {
  MPI_Comm comm;
  int size, class = -1, i, mine = -1;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  MPI_Comm_size(comm, &size);
  int* counts = malloc(size * sizeof *counts);
  int* values = malloc(size * sizeof *values);
  for (i = 0; i < size; i++) counts[i] = -1, values[i] = rank + 10 * i;
  MPI_Error_class(MPI_Reduce_scatter(values, &mine, counts, MPI_INT, MPI_SUM, comm), &class);
  if (rank == 0) result("refused reduce_scatter is MPI_ERR_COUNT", class == MPI_ERR_COUNT);
  for (i = 0; i < size; i++) counts[i] = 1;
  MPI_Reduce_scatter(values, &mine, counts, MPI_INT, MPI_SUM, comm);
  if (rank == 0) result("reduced", mine);
  free(counts);
  free(values);
  MPI_Comm_free(&comm);
}

/* Rank r contributes r + 1 elements of value 100 + r; the root sees them all. */
static void nonblocking_v_forms(int size) {
  int i, counts[64], displs[64], mine[64], all[64 * 65 / 2], got[64], sum = 0;
  MPI_Request r[4];
  for (i = 0; i < size; i++) counts[i] = i + 1, displs[i] = i * (i + 1) / 2;
  for (i = 0; i <= rank; i++) mine[i] = 100 + rank;
  MPI_Igatherv(mine, rank + 1, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  if (rank == 0)
    for (i = 0; i < size * (size + 1) / 2; i++) sum += all[i];
  MPI_Iscatterv(all, counts, displs, MPI_INT, got, rank + 1, MPI_INT, 0, MPI_COMM_WORLD, &r[1]);
  MPI_Wait(&r[1], MPI_STATUS_IGNORE);
  if (rank == 0) result("igatherv sum", sum);
  if (rank == 0) result("iscatterv back", got[0] == 100);
  /* Reduce-scatter: rank r gets r + 1 sums, each of every rank's value. */
  int values[64 * 65 / 2], reduced[64];
  for (i = 0; i < size * (size + 1) / 2; i++) values[i] = rank + 1;
  MPI_Ireduce_scatter(values, reduced, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[2]);
  MPI_Wait(&r[2], MPI_STATUS_IGNORE);
  if (rank == 0) result("ireduce_scatter", reduced[0]);
  int scounts[64], sdispls[64], out[64], in[64];
  MPI_Datatype types[64];
  for (i = 0; i < size; i++) scounts[i] = 1, sdispls[i] = i * (int)sizeof(int), types[i] = MPI_INT, out[i] = rank * 10 + i;
  MPI_Ialltoallw(out, scounts, sdispls, types, in, scounts, sdispls, types, MPI_COMM_WORLD, &r[3]);
  MPI_Wait(&r[3], MPI_STATUS_IGNORE);
  if (rank == 0) result("ialltoallw from last", in[size - 1]);
}

static void allreduce_on(MPI_Comm comm, const char* what) {
  int one = 1, n = 0;
  MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, comm);
  if (rank == 0) result(what, n);
}

static void more_communicators(int size) {
  MPI_Comm dup, grouped, half, inter, merged, ring;
  MPI_Group world;
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &dup);
  MPI_Info_free(&info);
  allreduce_on(dup, "dup_with_info size");
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Comm_create_group(MPI_COMM_WORLD, world, 7, &grouped);
  MPI_Group_free(&world);
  allreduce_on(grouped, "create_group size");
  /* The lower and upper halves, joined by an intercommunicator and merged back. */
  MPI_Comm_split(MPI_COMM_WORLD, rank < size / 2, rank, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank < size / 2 ? size / 2 : 0, 3, &inter);
  MPI_Intercomm_merge(inter, rank < size / 2, &merged);
  allreduce_on(merged, "merged size");
  int periodic = 1, dims = size, right;
  MPI_Cart_create(MPI_COMM_WORLD, 1, &dims, &periodic, 0, &ring);
  int counts[2] = {1, 1}, displs[2] = {0, 1}, both[2];
  MPI_Neighbor_allgatherv(&rank, 1, MPI_INT, both, counts, displs, MPI_INT, ring);
  right = (rank + 1) % size;
  if (rank == 0) result("neighbour from the right", both[1] == right);
  MPI_Comm_free(&ring);
  MPI_Comm_free(&merged);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
  MPI_Comm_free(&grouped);
  MPI_Comm_free(&dup);
}

static void large_count_c(void) {
#if MPI_VERSION >= 4
  const MPI_Count big = (1LL << 31) + 3;
  char* data = malloc((size_t)big);
  MPI_Status st;
  MPI_Count got = -1;
  if (!data) MPI_Abort(MPI_COMM_WORLD, 3);
  data[big - 1] = rank == 0 ? 7 : 0;
  if (rank == 0) MPI_Send_c(data, big, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
  if (rank == 1) {
    MPI_Request big_receive;
    MPI_Irecv_c(data, big, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &big_receive);
    MPI_Wait(&big_receive, &st);
    MPI_Get_count_c(&st, MPI_BYTE, &got);
    result("recv_c count", got);
    result("recv_c last byte", data[big - 1]);
  }
  free(data);
  double x = rank + 1, sum = 0, both[2] = {0, 0};
  MPI_Count counts[2] = {1, 1};
  MPI_Aint displs[2] = {0, 1};
  MPI_Request r[2];
  if (rank == 0) MPI_Isend_c(&x, 1, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD, &r[0]);
  if (rank == 1) MPI_Irecv_c(&sum, 1, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  if (rank == 1) result("irecv_c", (long long)sum);
  double partner = 0;
  MPI_Isendrecv_c(&x, 1, MPI_DOUBLE, 1 - rank, 3, &partner, 1, MPI_DOUBLE, 1 - rank, 3, MPI_COMM_WORLD, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  if (rank == 0) result("isendrecv_c", (long long)partner);
  MPI_Allreduce_c(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Bcast_c(&sum, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Igatherv_c(&x, 1, MPI_DOUBLE, both, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD, &r[1]);
  MPI_Wait(&r[1], MPI_STATUS_IGNORE);
  if (rank == 0) result("allreduce_c", (long long)sum), result("igatherv_c", (long long)(both[0] + both[1]));
#else
  if (rank == 0) result("skipped", 1);
#endif
}

static void isendrecv(int size) {
#if MPI_VERSION >= 4
  int out[2] = {rank, 10 * rank}, in[3] = {-1, -1, -1}, count = -1;
  MPI_Request r;
  MPI_Status st;
  MPI_Isendrecv(out, 2, MPI_INT, (rank + 1) % size, 5, in, 3, MPI_INT, (rank + size - 1) % size, 5, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, &st);
  MPI_Get_count(&st, MPI_INT, &count);
  if (rank == 0) result("ring from", in[0]), result("ring value", in[1]);
  /* Not a result: MPICH 4.0.2 sets no status for MPI_Isendrecv, the shim sets the receive's. */
  if (rank == 0) printf("status: ring count %d source %d tag %d\n", count, st.MPI_SOURCE, st.MPI_TAG);
  int value = 100 + rank, flag = 0;
  if (rank == 0) {
    MPI_Send(&value, 1, MPI_INT, 1, 6, MPI_COMM_WORLD);
    MPI_Recv(&value, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    result("replaced by", value);
    MPI_Recv(&value, 1, MPI_INT, 1, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    result("replace got", value);
  } else if (rank == 1) {
    MPI_Isendrecv_replace(&value, 1, MPI_INT, 0, 7, 0, 6, MPI_COMM_WORLD, &r);
    while (!flag) MPI_Test(&r, &flag, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    printf("status: replace count %d source %d tag %d\n", count, st.MPI_SOURCE, st.MPI_TAG);
    MPI_Send(&value, 1, MPI_INT, 0, 8, MPI_COMM_WORLD);
  }
#else
  (void)size;
  if (rank == 0) result("skipped", 1);
#endif
}

enum { THREADS = 2, THREAD_ROUNDS = 100 };

struct thread_work {
  MPI_Comm comm;
  int size, id, wrong;
};

static void* thread_exchange(void* argument) {
  struct thread_work* w = argument;
  const int right = (rank + 1) % w->size, left = (rank + w->size - 1) % w->size;
  for (int round = 0; round < THREAD_ROUNDS; ++round) {
    int out = 1000 * round + 10 * rank + w->id, in = -1, sum = 0;
    MPI_Request r[2];
    MPI_Irecv(&in, 1, MPI_INT, left, round, w->comm, &r[0]);
    MPI_Isend(&out, 1, MPI_INT, right, round, w->comm, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    if (in != 1000 * round + 10 * left + w->id) ++w->wrong;
    MPI_Allreduce(&out, &sum, 1, MPI_INT, MPI_SUM, w->comm);
    if (sum != w->size * 1000 * round + 10 * w->size * (w->size - 1) / 2 + w->size * w->id) ++w->wrong;
  }
  return NULL;
}

static void threads_at_once(int size) {
  int provided = 0, wrong = 0, all_wrong = 0;
  MPI_Query_thread(&provided);
  pthread_t threads[THREADS];
  struct thread_work work[THREADS];
  for (int t = 0; t < THREADS; ++t) {
    MPI_Comm_dup(MPI_COMM_WORLD, &work[t].comm);
    work[t].size = size, work[t].id = t, work[t].wrong = 0;
  }
  if (provided == MPI_THREAD_MULTIPLE)
    for (int t = 0; t < THREADS; ++t) pthread_create(&threads[t], NULL, thread_exchange, &work[t]);
  for (int t = 0; t < THREADS; ++t) {
    if (provided == MPI_THREAD_MULTIPLE) pthread_join(threads[t], NULL);
    else thread_exchange(&work[t]);
    wrong += work[t].wrong;
    MPI_Comm_free(&work[t].comm);
  }
  MPI_Allreduce(&wrong, &all_wrong, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) result("threads wrong", all_wrong);
}

int main(int argc, char** argv) {
  const char* which = argc > 1 ? argv[1] : "";
  if (strcmp(which, "thread-multiple") == 0) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  } else {
    MPI_Init(&argc, &argv);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (strcmp(which, "status-error") == 0) status_error();
  else if (strcmp(which, "get-status") == 0) get_status();
  else if (strcmp(which, "large-count") == 0) large_count();
  else if (strcmp(which, "partitioned") == 0) partitioned();
  else if (strcmp(which, "bsend-detach") == 0) bsend_detach();
  else if (strcmp(which, "free-pending") == 0) free_pending();
  else if (strcmp(which, "refused-counts") == 0) refused_counts();
  else if (strcmp(which, "more-calls") == 0) {
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    nonblocking_v_forms(size);
    more_communicators(size);
  } else if (strcmp(which, "large-count-c") == 0) large_count_c();
  else if (strcmp(which, "isendrecv") == 0) {
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    isendrecv(size);
  }
  else if (strcmp(which, "no-finalize") == 0) return 0;
  else if (strcmp(which, "thread-multiple") == 0) {
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    threads_at_once(size);
  } else {
    if (rank == 0) fprintf(stderr, "transparency: unknown case '%s'\n", which);
    MPI_Finalize();
    return 2;
  }
  MPI_Finalize();
  return 0;
}
