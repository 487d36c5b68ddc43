#pragma once
// How a Fortran program hands an argument to MPI, and how the C wrapper wants it.
//
// Open MPI's Fortran bindings (mpif.h, `use mpi`, `use mpi_f08`) call the C library through its
// PMPI_* names, so a program written in Fortran never passes through the shim's MPI_* entry
// points. The shim therefore exports the Fortran names too; each converts its arguments here and
// calls the shim's own C entry point, so both languages are priced by the same code.
//
// Fortran passes every argument by reference: handles are integers (MPI_Fint) turned into C
// handles with MPI_*_f2c, statuses are integer arrays, logicals are integers (1 and 0 with
// gfortran), and MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS(ES)_IGNORE, MPI_UNWEIGHTED and
// MPI_WEIGHTS_EMPTY are the addresses of the library's common blocks. `Argument<C>` names, for
// one C parameter type, the Fortran parameter type and the conversion; a conversion that must
// write back (a request the call creates, a status it fills) returns a holder whose destructor
// writes the Fortran side once the call has returned.
//
// What a program sees after a failed call is what Open MPI's bindings leave: they write a
// handle, a copied status or an array back only when the C call returned MPI_SUCCESS (after a
// truncated MPI_Wait the status and the request are as the program had them), while the
// receives and probes hand the Fortran status to C in place, so there it holds whatever the C
// call wrote. The holders follow the call's `Outcome`.
#include <mpi.h>

#include <type_traits>

#include "revprof/shim/fortran/outcome.hpp"

namespace augur::revprof::fortran {

static_assert(std::is_same_v<MPI_Fint, int>, "Fortran INTEGER arrays are passed to C as int arrays");

// The addresses Fortran programs pass for MPI's special buffers and arrays.
void* c_buffer(void* fortran_address);
const int* c_int_array(const int* fortran_address);
bool ignores_status(const MPI_Fint* status);
bool ignores_statuses(const MPI_Fint* statuses);

template <class Handle, Handle (*f2c)(MPI_Fint)>
struct HandleArgument {
  using Fortran = MPI_Fint*;
  static Handle in(Fortran f, const Outcome&) { return f2c(*f); }
};

// A handle the call creates or changes (MPI_Request*, MPI_Comm*, ...), written back afterwards
// if the call succeeded. Before a call that only creates one, the Fortran variable may hold
// anything: its f2c is then null or some handle, never used.
template <class Handle, Handle (*f2c)(MPI_Fint), MPI_Fint (*c2f)(Handle)>
struct HandleOutArgument {
  using Fortran = MPI_Fint*;
  class Holder {
   public:
    Holder(MPI_Fint* fortran, const Outcome& outcome) : fortran_(fortran), outcome_(outcome), c_(f2c(*fortran)) {}
    Holder(const Holder&) = delete;
    ~Holder() {
      if (outcome_.succeeded()) *fortran_ = c2f(c_);
    }
    operator Handle*() { return &c_; }

   private:
    MPI_Fint* fortran_;
    const Outcome& outcome_;
    Handle c_;
  };
  static Holder in(Fortran f, const Outcome& outcome) { return Holder(f, outcome); }
};

template <class C>
struct Argument;

template <>
struct Argument<int> {
  using Fortran = const MPI_Fint*;
  static int in(Fortran f, const Outcome&) { return *f; }
};
template <>
struct Argument<MPI_Aint> {
  using Fortran = const MPI_Aint*;
  static MPI_Aint in(Fortran f, const Outcome&) { return *f; }
};
// INTEGER(KIND=MPI_OFFSET_KIND), MPI-IO's file offsets.
static_assert(!std::is_same_v<MPI_Offset, MPI_Aint>, "MPI_Offset and MPI_Aint are told apart by type");
template <>
struct Argument<MPI_Offset> {
  using Fortran = const MPI_Offset*;
  static MPI_Offset in(Fortran f, const Outcome&) { return *f; }
};
// Counts, displacements, dimensions and logical arrays: Fortran's default INTEGER and LOGICAL
// are C's int, so arrays pass as they are, but for the special arrays' addresses.
template <>
struct Argument<const int*> {
  using Fortran = const MPI_Fint*;
  static const int* in(Fortran f, const Outcome&) { return c_int_array(f); }
};
// A flag or a count the call sets (MPI_Iprobe's flag, MPI_Init_thread's provided level).
template <>
struct Argument<int*> {
  using Fortran = MPI_Fint*;
  static int* in(Fortran f, const Outcome&) { return f; }
};
template <>
struct Argument<const void*> {
  using Fortran = void*;
  static const void* in(Fortran f, const Outcome&) { return c_buffer(f); }
};
template <>
struct Argument<void*> {
  using Fortran = void*;
  static void* in(Fortran f, const Outcome&) { return c_buffer(f); }
};

template <>
struct Argument<MPI_Comm> : HandleArgument<MPI_Comm, PMPI_Comm_f2c> {};
template <>
struct Argument<MPI_Datatype> : HandleArgument<MPI_Datatype, PMPI_Type_f2c> {};
template <>
struct Argument<MPI_Op> : HandleArgument<MPI_Op, PMPI_Op_f2c> {};
template <>
struct Argument<MPI_Info> : HandleArgument<MPI_Info, PMPI_Info_f2c> {};
template <>
struct Argument<MPI_Group> : HandleArgument<MPI_Group, PMPI_Group_f2c> {};
template <>
struct Argument<MPI_Win> : HandleArgument<MPI_Win, PMPI_Win_f2c> {};
template <>
struct Argument<MPI_Request> : HandleArgument<MPI_Request, PMPI_Request_f2c> {};
template <>
struct Argument<MPI_File> : HandleArgument<MPI_File, PMPI_File_f2c> {};

template <>
struct Argument<MPI_Request*> : HandleOutArgument<MPI_Request, PMPI_Request_f2c, PMPI_Request_c2f> {};
template <>
struct Argument<MPI_Comm*> : HandleOutArgument<MPI_Comm, PMPI_Comm_f2c, PMPI_Comm_c2f> {};
template <>
struct Argument<MPI_Datatype*> : HandleOutArgument<MPI_Datatype, PMPI_Type_f2c, PMPI_Type_c2f> {};
template <>
struct Argument<MPI_Message*> : HandleOutArgument<MPI_Message, PMPI_Message_f2c, PMPI_Message_c2f> {};
template <>
struct Argument<MPI_File*> : HandleOutArgument<MPI_File, PMPI_File_f2c, PMPI_File_c2f> {};
template <>
struct Argument<MPI_Win*> : HandleOutArgument<MPI_Win, PMPI_Win_f2c, PMPI_Win_c2f> {};

// One status: the program's own fields are carried over first, so that what the C call leaves
// alone (MPI_ERROR after a single completion) stays as the program set it, as where Open MPI's
// bindings hand the Fortran array to C in place. (Where they copy a C status back, they copy an
// MPI_ERROR they never set, which no program can rely on.) Written back as the Outcome says.
class StatusHolder {
 public:
  StatusHolder(MPI_Fint* fortran, const Outcome& outcome)
      : fortran_(ignores_status(fortran) ? nullptr : fortran), outcome_(outcome) {
    if (fortran_) PMPI_Status_f2c(fortran_, &c_);
  }
  StatusHolder(const StatusHolder&) = delete;
  ~StatusHolder() {
    if (fortran_ && (outcome_.status_always || outcome_.succeeded())) PMPI_Status_c2f(&c_, fortran_);
  }
  operator MPI_Status*() { return fortran_ ? &c_ : MPI_STATUS_IGNORE; }

 private:
  MPI_Fint* fortran_;
  const Outcome& outcome_;
  MPI_Status c_{};
};

template <>
struct Argument<MPI_Status*> {
  using Fortran = MPI_Fint*;
  static StatusHolder in(Fortran f, const Outcome& outcome) { return StatusHolder(f, outcome); }
};

}  // namespace augur::revprof::fortran
