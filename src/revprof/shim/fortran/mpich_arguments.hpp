#pragma once
// How MPICH's `use mpi_f08` hands an argument to MPI, and how the shim's C wrapper wants it.
//
// MPICH's handles are C ints whose Fortran value is the C one (MPI_Comm_f2c is a cast), and its
// TYPE(MPI_Status) is laid out as the C MPI_Status, so MPICH's own mpi_f08 entry points hand
// the program's variables to C in place: handles, requests and their arrays, statuses, flags
// and indices. The shim does the same, which leaves a program with what MPICH's bindings leave
// it, after a failed call too. What does need converting is an address MPICH reserves:
// MPI_STATUS(ES)_IGNORE, MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY (mpich_arguments.cpp).
//
// Every handle type is `int` here, so `Argument<int>` serves them all, and `Argument<int*>`
// every handle, flag or count the call writes.
#include <mpi.h>

#include <type_traits>

#include "revprof/shim/fortran/outcome.hpp"

namespace augur::revprof::fortran {

static_assert(std::is_same_v<MPI_Fint, int> && std::is_same_v<MPI_Comm, int> && std::is_same_v<MPI_Request, int>,
              "MPICH's Fortran handles are its C handles");
static_assert(sizeof(MPI_Status) == sizeof(MPI_F08_status), "TYPE(MPI_Status) is laid out as the C MPI_Status");

// The C meaning of the addresses a program passes for MPICH's special objects.
MPI_Status* c_status(MPI_Fint* fortran_address);
MPI_Status* c_statuses(MPI_Fint* fortran_address);
const int* c_int_array(const int* fortran_address);

template <class C>
struct Argument;

template <>
struct Argument<int> {
  using Fortran = const MPI_Fint*;
  static int in(Fortran f, const Outcome&) { return *f; }
};
template <>
struct Argument<const int*> {
  using Fortran = const MPI_Fint*;
  static const int* in(Fortran f, const Outcome&) { return c_int_array(f); }
};
template <>
struct Argument<int*> {
  using Fortran = MPI_Fint*;
  static int* in(Fortran f, const Outcome&) { return f; }
};
// A window's size in bytes, INTEGER(KIND=MPI_ADDRESS_KIND) (MPICH's MPI_Aint, MPI_Count and
// MPI_Offset are all `long`).
template <>
struct Argument<MPI_Aint> {
  using Fortran = const MPI_Aint*;
  static MPI_Aint in(Fortran f, const Outcome&) { return *f; }
};
// MPI_Buffer_detach's and MPI_Win_allocate's address argument: the program's TYPE(C_PTR), which C sets.
template <>
struct Argument<void*> {
  using Fortran = void*;
  static void* in(Fortran f, const Outcome&) { return f; }
};
template <>
struct Argument<MPI_Status*> {
  using Fortran = MPI_Fint*;
  static MPI_Status* in(Fortran f, const Outcome&) { return c_status(f); }
};

// MPICH before 4.1 gives Fortran the C call's 0-based indices from MPI_Waitany, MPI_Testany,
// MPI_Waitsome and MPI_Testsome through mpi_f08 (fixed in MPICH 4.1); the shim gives what the
// library gives.
#if MPICH_NUMVERSION >= 40100000
inline constexpr int kIndexBase = 1;
#else
inline constexpr int kIndexBase = 0;
#endif

inline int fortran_index(int c_index) { return c_index == MPI_UNDEFINED ? c_index : c_index + kIndexBase; }

}  // namespace augur::revprof::fortran
