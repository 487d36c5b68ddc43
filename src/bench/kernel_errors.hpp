#pragma once
// What a kernel does when the MPI library cannot do it. The sweep's communicators, those the
// kernels make from them and the kernels' windows return errors to the caller instead of ending
// the job (MPI_ERRORS_ARE_FATAL, MPI's default), and each rank records the first error since the
// point began. The ranks of a group then agree, collectively, whether any of them failed, so that
// one rank's failure stops the point on all of them and the sweep goes on with the next
// operation (docs/bench-method.md, "Operations the MPI cannot run").
#include <string>
#include <string_view>

#include <mpi.h>

namespace augur::bench {

// Errors on `comm` (and on the communicators made from it, which inherit its handler) or `window`
// return to the caller and are recorded on this rank. Two names, not overloads: MPICH's handles
// are all int.
void return_errors(MPI_Comm comm);
void return_window_errors(MPI_Win window);

// While one lives, a point is measured: no error is recorded yet on this rank, and errors that
// MPI raises on MPI_COMM_WORLD and MPI_COMM_SELF (those of a call given a null handle, such as
// a fence on the window a failed MPI_Win_create left) are recorded too, instead of ending the
// job. The sweep's own calls between points keep the handlers they had.
class PointErrors {
 public:
  PointErrors();
  ~PointErrors();
  PointErrors(const PointErrors&) = delete;
  PointErrors& operator=(const PointErrors&) = delete;

 private:
  MPI_Errhandler world_ = MPI_ERRHANDLER_NULL, self_ = MPI_ERRHANDLER_NULL;
};

// The first error code recorded on this rank since the current PointErrors began; MPI_SUCCESS
// when none.
int recorded_error();

// Collective over `comm`: an error code recorded on some rank of it (the highest), or MPI_SUCCESS
// when none failed. Every rank gets the same answer.
int agreed_error(MPI_Comm comm);

// The MPI library's text for `code` (MPI_Error_string).
std::string error_text(int code);

// For tests: when the environment variable AUGUR_BENCH_FAIL names `kernel` (a comma-separated
// list of operation names), makes a call on `comm` that every MPI refuses (a negative count), as
// a kernel the library cannot run would fail. Collective over `comm`.
void fail_when_asked(std::string_view kernel, MPI_Comm comm);

}  // namespace augur::bench
