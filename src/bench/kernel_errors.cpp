#include "bench/kernel_errors.hpp"

#include <cstdlib>
#include <sstream>

namespace augur::bench {
namespace {

int first_error = MPI_SUCCESS;

void record(int code) {
  if (first_error == MPI_SUCCESS) first_error = code;
}

void record_on_comm(MPI_Comm*, int* code, ...) { record(*code); }
void record_on_window(MPI_Win*, int* code, ...) { record(*code); }

MPI_Errhandler comm_recorder() {
  static const MPI_Errhandler handler = [] {
    MPI_Errhandler made;
    MPI_Comm_create_errhandler(record_on_comm, &made);
    return made;
  }();
  return handler;
}

}  // namespace

void return_errors(MPI_Comm comm) { MPI_Comm_set_errhandler(comm, comm_recorder()); }

void return_window_errors(MPI_Win window) {
  static const MPI_Errhandler handler = [] {
    MPI_Errhandler made;
    MPI_Win_create_errhandler(record_on_window, &made);
    return made;
  }();
  MPI_Win_set_errhandler(window, handler);
}

PointErrors::PointErrors() {
  first_error = MPI_SUCCESS;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &world_);
  MPI_Comm_get_errhandler(MPI_COMM_SELF, &self_);
  return_errors(MPI_COMM_WORLD);
  return_errors(MPI_COMM_SELF);
}

PointErrors::~PointErrors() {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, world_);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, self_);
  MPI_Errhandler_free(&world_);
  MPI_Errhandler_free(&self_);
}

int recorded_error() { return first_error; }

int agreed_error(MPI_Comm comm) {
  int code = first_error;
  MPI_Allreduce(MPI_IN_PLACE, &code, 1, MPI_INT, MPI_MAX, comm);
  return code;
}

std::string error_text(int code) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) return "MPI error " + std::to_string(code);
  return std::string(text, static_cast<std::size_t>(length));
}

void fail_when_asked(std::string_view kernel, MPI_Comm comm) {
  const char* asked = std::getenv("AUGUR_BENCH_FAIL");
  if (!asked) return;
  std::istringstream names(asked);
  std::string name;
  while (std::getline(names, name, ','))
    if (name == kernel) {
      char byte = 0;
      MPI_Bcast(&byte, -1, MPI_BYTE, 0, comm);
      return;
    }
}

}  // namespace augur::bench
