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
#include <mpi.h>

#include <type_traits>

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
  static Handle in(Fortran f) { return f2c(*f); }
};

// A handle the call creates or changes (MPI_Request*, MPI_Comm*, ...), written back afterwards.
template <class Handle, Handle (*f2c)(MPI_Fint), MPI_Fint (*c2f)(Handle)>
struct HandleOutArgument {
  using Fortran = MPI_Fint*;
  class Holder {
   public:
    explicit Holder(MPI_Fint* fortran) : fortran_(fortran), c_(f2c(*fortran)) {}
    Holder(const Holder&) = delete;
    ~Holder() { *fortran_ = c2f(c_); }
    operator Handle*() { return &c_; }

   private:
    MPI_Fint* fortran_;
    Handle c_;
  };
  static Holder in(Fortran f) { return Holder(f); }
};

template <class C>
struct Argument;

template <>
struct Argument<int> {
  using Fortran = const MPI_Fint*;
  static int in(Fortran f) { return *f; }
};
template <>
struct Argument<MPI_Aint> {
  using Fortran = const MPI_Aint*;
  static MPI_Aint in(Fortran f) { return *f; }
};
// Counts, displacements, dimensions and logical arrays: Fortran's default INTEGER and LOGICAL
// are C's int, so arrays pass as they are, but for the special arrays' addresses.
template <>
struct Argument<const int*> {
  using Fortran = const MPI_Fint*;
  static const int* in(Fortran f) { return c_int_array(f); }
};
// A flag or a count the call sets (MPI_Iprobe's flag, MPI_Init_thread's provided level).
template <>
struct Argument<int*> {
  using Fortran = MPI_Fint*;
  static int* in(Fortran f) { return f; }
};
template <>
struct Argument<const void*> {
  using Fortran = void*;
  static const void* in(Fortran f) { return c_buffer(f); }
};
template <>
struct Argument<void*> {
  using Fortran = void*;
  static void* in(Fortran f) { return c_buffer(f); }
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
struct Argument<MPI_Request*> : HandleOutArgument<MPI_Request, PMPI_Request_f2c, PMPI_Request_c2f> {};
template <>
struct Argument<MPI_Comm*> : HandleOutArgument<MPI_Comm, PMPI_Comm_f2c, PMPI_Comm_c2f> {};
template <>
struct Argument<MPI_Datatype*> : HandleOutArgument<MPI_Datatype, PMPI_Type_f2c, PMPI_Type_c2f> {};
template <>
struct Argument<MPI_Message*> : HandleOutArgument<MPI_Message, PMPI_Message_f2c, PMPI_Message_c2f> {};

// One status: the program's own fields are carried over first, so that what the C call leaves
// alone (MPI_ERROR after a single completion) stays as the program set it, as in Open MPI's own
// bindings, which hand the Fortran array to C unconverted.
class StatusHolder {
 public:
  explicit StatusHolder(MPI_Fint* fortran) : fortran_(ignores_status(fortran) ? nullptr : fortran) {
    if (fortran_) PMPI_Status_f2c(fortran_, &c_);
  }
  StatusHolder(const StatusHolder&) = delete;
  ~StatusHolder() {
    if (fortran_) PMPI_Status_c2f(&c_, fortran_);
  }
  operator MPI_Status*() { return fortran_ ? &c_ : MPI_STATUS_IGNORE; }

 private:
  MPI_Fint* fortran_;
  MPI_Status c_{};
};

template <>
struct Argument<MPI_Status*> {
  using Fortran = MPI_Fint*;
  static StatusHolder in(Fortran f) { return StatusHolder(f); }
};

// Sets the optional error argument (mpi_f08 may leave it out).
inline void set_error(MPI_Fint* ierror, int rc) {
  if (ierror) *ierror = rc;
}

}  // namespace augur::revprof::fortran
