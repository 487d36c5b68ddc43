! Shared checking for the Fortran twins of the conformance programs, as conf.h is for the C ones.
! Each program runs the same way plainly and under `augur run`, and run.sh compares the two runs'
! stdout and exit status, and each twin's stdout with its C program's: only rank 0 prints, and a
! check's verdict is agreed on by all ranks before it is printed. Details of a failed expectation
! go to stderr, which is not compared.
!
! The programs' buffers of nonblocking, persistent and partitioned calls are ASYNCHRONOUS, as MPI
! asks of Fortran: without it the compiler may drop a write that no Fortran statement reads
! before MPI_Start sends it, or keep a value read before the wait that filled the buffer.
!
! This part calls no MPI; conf (for `use mpi` and mpif.h programs) and conf_f08 (for `use
! mpi_f08` programs) add the calls, each through its own interface.
module conf_base
  use, intrinsic :: iso_fortran_env, only: output_unit, error_unit, int64
  implicit none
  private
  public :: conf_rank, conf_local_ok, conf_any_failed, CONF_SENTINEL, expect, conf_print, str, int_of, error_field

  integer, save :: conf_rank = -1
  logical, save :: conf_local_ok = .true.
  logical, save :: conf_any_failed = .false.
  ! What reset_status stores in MPI_ERROR, to tell a field MPI left alone from one it wrote.
  integer, parameter :: CONF_SENTINEL = 12345

  ! An integer as C's %d and %lld print it.
  interface str
    module procedure str_default, str_int64
  end interface

contains

  subroutine expect(holds, text)
    logical, intent(in) :: holds
    character(*), intent(in) :: text
    if (.not. holds) then
      conf_local_ok = .false.
      write (error_unit, '(a,i0,2a)') 'rank ', conf_rank, ': expected ', text
      flush (error_unit)
    end if
  end subroutine expect

  ! Rank 0 prints one line; flushed at once so that a run which later hangs still shows how far
  ! it got.
  subroutine conf_print(line)
    character(*), intent(in) :: line
    if (conf_rank /= 0) return
    write (output_unit, '(a)') line
    flush (output_unit)
  end subroutine conf_print

  function str_default(i) result(s)
    integer, intent(in) :: i
    character(:), allocatable :: s
    character(24) :: buffer
    write (buffer, '(i0)') i
    s = trim(buffer)
  end function str_default

  function str_int64(i) result(s)
    integer(int64), intent(in) :: i
    character(:), allocatable :: s
    character(24) :: buffer
    write (buffer, '(i0)') i
    s = trim(buffer)
  end function str_int64

  ! A status's MPI_ERROR as conf.h prints it.
  function error_field(error) result(s)
    integer, intent(in) :: error
    character(:), allocatable :: s
    if (error == CONF_SENTINEL) then
      s = 'untouched'
    else
      s = str(error)
    end if
  end function error_field

  ! A logical as C's flags print it.
  integer function int_of(flag)
    logical, intent(in) :: flag
    int_of = merge(1, 0, flag)
  end function int_of

end module conf_base
