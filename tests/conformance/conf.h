/* Shared checking for the conformance programs. Each program runs the same way plainly and under
   `augur run`, and run.sh compares the two runs' stdout and exit status, so everything printed
   must be deterministic: only rank 0 prints, and a check's verdict is agreed on by all ranks
   before it is printed. Details of a failed expectation go to stderr, which is not compared. */
#ifndef CONF_H
#define CONF_H

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>

static int conf_rank = -1;
static int conf_local_ok = 1;
static int conf_any_failed = 0;

#define EXPECT(cond) conf_expect((cond) != 0, #cond, __LINE__)

static inline void conf_expect(int holds, const char *text, int line) {
  if (!holds) {
    conf_local_ok = 0;
    fprintf(stderr, "rank %d: line %d: expected %s\n", conf_rank, line, text);
    fflush(stderr);
  }
}

static inline void conf_init(int *argc, char ***argv) {
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &conf_rank);
}

/* Rank 0 prints; flushed at once so that a run which later hangs still shows how far it got. */
static inline void conf_print(const char *format, ...) {
  va_list args;
  if (conf_rank != 0) return;
  va_start(args, format);
  vprintf(format, args);
  va_end(args);
  fflush(stdout);
}

/* Collective over MPI_COMM_WORLD: ends one named check. */
static inline void conf_check(const char *name) {
  int all = 0;
  MPI_Allreduce(&conf_local_ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  conf_print("%s %s\n", all ? "ok" : "FAILED", name);
  if (!all) conf_any_failed = 1;
  conf_local_ok = 1;
}

static inline int conf_finish(void) {
  MPI_Finalize();
  return conf_any_failed ? 1 : 0;
}

/* A status field as the program sees it: the sentinel it stored, or the value MPI wrote. */
#define CONF_SENTINEL 12345
static inline void conf_print_status(const char *what, const MPI_Status *status, MPI_Datatype type) {
  int count = -1;
  MPI_Get_count(status, type, &count);
  if (status->MPI_ERROR == CONF_SENTINEL)
    conf_print("%s: source=%d tag=%d count=%d error=untouched\n", what, status->MPI_SOURCE, status->MPI_TAG, count);
  else
    conf_print("%s: source=%d tag=%d count=%d error=%d\n", what, status->MPI_SOURCE, status->MPI_TAG, count,
               status->MPI_ERROR);
}

static inline void conf_reset_status(MPI_Status *status) {
  status->MPI_SOURCE = -7;
  status->MPI_TAG = -7;
  status->MPI_ERROR = CONF_SENTINEL;
}

#endif
