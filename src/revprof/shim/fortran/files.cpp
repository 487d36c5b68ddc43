// Fortran names of the MPI-IO calls the shim counts among the calls that ran unpredicted, so a
// Fortran program's report names them as a C program's does.
#include <mpi.h>
// Open MPI only, as entry_points.cpp says (MPICH's are in mpich_f08.cpp).
#ifdef OPEN_MPI
#include <cstddef>
#include <string>

#include "revprof/shim/fortran/forward.hpp"

AUGUR_FORTRAN(mpi_file_read_at, MPI_FILE_READ_AT, MPI_File_read_at, 6)
AUGUR_FORTRAN(mpi_file_write_at, MPI_FILE_WRITE_AT, MPI_File_write_at, 6)
AUGUR_FORTRAN(mpi_file_read_all, MPI_FILE_READ_ALL, MPI_File_read_all, 5)
AUGUR_FORTRAN(mpi_file_write_all, MPI_FILE_WRITE_ALL, MPI_File_write_all, 5)

using namespace augur::revprof::fortran;

namespace {

// What Open MPI's binding makes of a filename: the Fortran string without its leading and
// trailing blanks.
std::string c_string(const char* fortran, std::size_t length) {
  std::size_t first = 0;
  while (first < length && fortran[first] == ' ') ++first;
  while (length > first && fortran[length - 1] == ' ') --length;
  return std::string(fortran + first, length - first);
}

}  // namespace

extern "C" {

// gfortran passes the filename's length after the other arguments, for mpif.h, `use mpi` and
// `use mpi_f08` alike. The file handle is written back when the call succeeds.
void mpi_file_open_(MPI_Fint* comm, const char* filename, MPI_Fint* amode, MPI_Fint* info, MPI_Fint* fh,
                    MPI_Fint* ierror, std::size_t filename_length) {
  MPI_File file = MPI_FILE_NULL;
  const int rc = MPI_File_open(PMPI_Comm_f2c(*comm), c_string(filename, filename_length).c_str(), *amode,
                               PMPI_Info_f2c(*info), &file);
  if (rc == MPI_SUCCESS) *fh = PMPI_File_c2f(file);
  set_error(ierror, rc);
}

}  // extern "C"

AUGUR_FORTRAN_ALIASES(mpi_file_open, MPI_FILE_OPEN)

#endif  // OPEN_MPI
