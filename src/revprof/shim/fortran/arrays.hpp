#pragma once
// Arrays of requests and statuses as Fortran passes them: converted to C before the call and
// written back after it when the call succeeded, as Open MPI's own bindings do.
#include <mpi.h>

#include <vector>

namespace augur::revprof::fortran {

// Open MPI lays a Fortran status out as its C MPI_Status (MPI_STATUS_SIZE integers).
inline constexpr int kStatusSize = sizeof(MPI_Status) / sizeof(MPI_Fint);

class RequestArray {
 public:
  RequestArray(MPI_Fint* fortran, int count);
  RequestArray(const RequestArray&) = delete;
  // Writes every request back once the call has changed them.
  void write_back();
  MPI_Request* data() { return c_.data(); }

 private:
  MPI_Fint* fortran_;
  std::vector<MPI_Request> c_;
};

class StatusArray {
 public:
  StatusArray(MPI_Fint* fortran, int count);
  StatusArray(const StatusArray&) = delete;
  // Writes back the first `count` statuses (all by default) once the call has filled them.
  void write_back(int count);
  MPI_Status* data() { return fortran_ ? c_.data() : MPI_STATUSES_IGNORE; }

 private:
  MPI_Fint* fortran_;
  std::vector<MPI_Status> c_;
};

// MPI's 0-based indices as Fortran's 1-based ones; MPI_UNDEFINED stays.
inline int fortran_index(int c_index) { return c_index == MPI_UNDEFINED ? c_index : c_index + 1; }

}  // namespace augur::revprof::fortran
