#include <mpi.h>
// Open MPI only, as entry_points.cpp says.
#ifdef OPEN_MPI
#include "revprof/shim/fortran/arrays.hpp"

#include "revprof/shim/fortran/arguments.hpp"

namespace augur::revprof::fortran {

RequestArray::RequestArray(MPI_Fint* fortran, int count) : fortran_(fortran), c_(count > 0 ? count : 1) {
  for (int i = 0; i < count; ++i) c_[i] = PMPI_Request_f2c(fortran[i]);
  c_.resize(count > 0 ? count : 0);
}

void RequestArray::write_back() {
  for (std::size_t i = 0; i < c_.size(); ++i) fortran_[i] = PMPI_Request_c2f(c_[i]);
}

StatusArray::StatusArray(MPI_Fint* fortran, int count)
    : fortran_(ignores_statuses(fortran) ? nullptr : fortran), c_(count > 0 ? count : 1) {
  if (!fortran_) return;
  for (int i = 0; i < count; ++i) PMPI_Status_f2c(fortran_ + i * kStatusSize, &c_[i]);
}

void StatusArray::write_back(int count) {
  if (!fortran_) return;
  for (int i = 0; i < count; ++i) PMPI_Status_c2f(&c_[i], fortran_ + i * kStatusSize);
}

}  // namespace augur::revprof::fortran
#endif  // OPEN_MPI
