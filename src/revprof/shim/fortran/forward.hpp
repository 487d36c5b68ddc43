#pragma once
// Exports one MPI function under the names Fortran programs call it by, forwarding to the shim's
// C entry point with each argument converted (arguments.hpp under Open MPI, mpich_arguments.hpp
// under MPICH).
//
// gfortran calls `MPI_Send` as `mpi_send_` (mpif.h and `use mpi`) and, with Open MPI's `use
// mpi_f08`, as `mpi_send_f08_`, whose handles are one-integer derived types, whose status is laid
// out as the integer array and whose error argument is optional. Other compilers' manglings
// (`mpi_send__`, `mpi_send`, `MPI_SEND`) are aliases of the same function. Under MPICH only the
// `use mpi_f08` names of the calls without a buffer are exported (mpich_f08.cpp says why).
#include <mpi.h>

#include <cstddef>

#ifdef OPEN_MPI
#include "revprof/shim/fortran/arguments.hpp"
#else
#include "revprof/shim/fortran/mpich_arguments.hpp"
#endif

namespace augur::revprof::fortran {

// The calls whose status Open MPI's bindings write back whatever the call returned (Outcome).
template <auto Function>
inline constexpr bool kStatusAlways = false;
template <>
inline constexpr bool kStatusAlways<MPI_Recv> = true;
template <>
inline constexpr bool kStatusAlways<MPI_Probe> = true;
template <>
inline constexpr bool kStatusAlways<MPI_Iprobe> = true;
template <>
inline constexpr bool kStatusAlways<MPI_Mprobe> = true;
template <>
inline constexpr bool kStatusAlways<MPI_Improbe> = true;
template <>
inline constexpr bool kStatusAlways<MPI_Mrecv> = true;
template <>
inline constexpr bool kStatusAlways<MPI_Request_get_status> = true;
template <>
inline constexpr bool kStatusAlways<MPI_File_read_at> = true;
template <>
inline constexpr bool kStatusAlways<MPI_File_write_at> = true;
template <>
inline constexpr bool kStatusAlways<MPI_File_read_all> = true;
template <>
inline constexpr bool kStatusAlways<MPI_File_write_all> = true;

template <auto Function>
struct Forward;

template <class... C, int (*Function)(C...)>
struct Forward<Function> {
  static constexpr std::size_t arity = sizeof...(C);

  template <class... Pointer>
  static void call(MPI_Fint* ierror, Pointer*... fortran) {
    static_assert(sizeof...(Pointer) == arity, "a Fortran entry point takes the C function's arguments and ierror");
    // The holders the conversions return are destroyed, writing back, at the end of the full
    // expression, once `outcome.rc` holds what the call returned.
    Outcome outcome{MPI_ERR_OTHER, kStatusAlways<Function>};
    set_error(ierror, outcome.rc = Function(Argument<C>::in(static_cast<typename Argument<C>::Fortran>(fortran),
                                                             outcome)...));
  }
};

}  // namespace augur::revprof::fortran

#define AUGUR_F_PARAMS_1 void* a1
#define AUGUR_F_PARAMS_2 AUGUR_F_PARAMS_1, void* a2
#define AUGUR_F_PARAMS_3 AUGUR_F_PARAMS_2, void* a3
#define AUGUR_F_PARAMS_4 AUGUR_F_PARAMS_3, void* a4
#define AUGUR_F_PARAMS_5 AUGUR_F_PARAMS_4, void* a5
#define AUGUR_F_PARAMS_6 AUGUR_F_PARAMS_5, void* a6
#define AUGUR_F_PARAMS_7 AUGUR_F_PARAMS_6, void* a7
#define AUGUR_F_PARAMS_8 AUGUR_F_PARAMS_7, void* a8
#define AUGUR_F_PARAMS_9 AUGUR_F_PARAMS_8, void* a9
#define AUGUR_F_PARAMS_10 AUGUR_F_PARAMS_9, void* a10
#define AUGUR_F_PARAMS_11 AUGUR_F_PARAMS_10, void* a11
#define AUGUR_F_PARAMS_12 AUGUR_F_PARAMS_11, void* a12
#define AUGUR_F_ARGS_1 a1
#define AUGUR_F_ARGS_2 AUGUR_F_ARGS_1, a2
#define AUGUR_F_ARGS_3 AUGUR_F_ARGS_2, a3
#define AUGUR_F_ARGS_4 AUGUR_F_ARGS_3, a4
#define AUGUR_F_ARGS_5 AUGUR_F_ARGS_4, a5
#define AUGUR_F_ARGS_6 AUGUR_F_ARGS_5, a6
#define AUGUR_F_ARGS_7 AUGUR_F_ARGS_6, a7
#define AUGUR_F_ARGS_8 AUGUR_F_ARGS_7, a8
#define AUGUR_F_ARGS_9 AUGUR_F_ARGS_8, a9
#define AUGUR_F_ARGS_10 AUGUR_F_ARGS_9, a10
#define AUGUR_F_ARGS_11 AUGUR_F_ARGS_10, a11
#define AUGUR_F_ARGS_12 AUGUR_F_ARGS_11, a12

// The other manglings of `lower_`, as aliases of it.
#define AUGUR_FORTRAN_ALIASES(lower, UPPER)                                          \
  extern "C" decltype(lower##_) lower##__ __attribute__((alias(#lower "_")));        \
  extern "C" decltype(lower##_) lower __attribute__((alias(#lower "_")));            \
  extern "C" decltype(lower##_) UPPER __attribute__((alias(#lower "_")));            \
  extern "C" decltype(lower##_) lower##_f08_ __attribute__((alias(#lower "_")));

// `lower_` and its aliases forward their n arguments and ierror to the C entry point `Function`.
#define AUGUR_FORTRAN(lower, UPPER, Function, n)                                 \
  extern "C" void lower##_(AUGUR_F_PARAMS_##n, MPI_Fint* ierror) {               \
    augur::revprof::fortran::Forward<&Function>::call(ierror, AUGUR_F_ARGS_##n); \
  }                                                                              \
  AUGUR_FORTRAN_ALIASES(lower, UPPER)

// MPICH's `use mpi_f08` name of `Function`, `lower_f08_`, forwarding its n arguments and ierror.
#define AUGUR_FORTRAN_F08(lower, Function, n)                                    \
  extern "C" void lower##_f08_(AUGUR_F_PARAMS_##n, MPI_Fint* ierror) {           \
    augur::revprof::fortran::Forward<&Function>::call(ierror, AUGUR_F_ARGS_##n); \
  }
