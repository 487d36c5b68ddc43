/* Compute on a thread other than the one that calls MPI: between two barriers the main thread
 * starts a worker that computes for SECONDS of its own CPU time and waits for it in
 * pthread_join, off the CPU, as a program handing its work to a thread pool does. Prints the
 * seconds the worker computed.
 * Usage: worker_threads SECONDS */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double thread_cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void* compute(void* arg) {
  const double seconds = *(const double*)arg;
  const double until = thread_cpu() + seconds;
  volatile double x = 1.0;
  while (thread_cpu() < until)
    for (int i = 0; i < 1000; ++i) x = x * 1.0000001 + 1e-9;
  return NULL;
}

int main(int argc, char** argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 0.2;
  int provided = 0;
  pthread_t worker;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Barrier(MPI_COMM_WORLD);
  pthread_create(&worker, NULL, compute, &seconds);
  pthread_join(worker, NULL);
  MPI_Barrier(MPI_COMM_WORLD);
  printf("worker computed %.3f s\n", seconds);
  MPI_Finalize();
  return 0;
}
