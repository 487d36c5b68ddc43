! The checking calls for programs that `use mpi` or include mpif.h (conf_base.f90 says what the
! helpers do). Only the helpers' own names are public, so a program that includes mpif.h can use
! this module beside its own declarations of MPI's names.
module conf
  use mpi
  use conf_base
  implicit none
  private
  public :: conf_rank, CONF_SENTINEL, expect, conf_print, str, int_of
  public :: conf_init, conf_check, conf_finish, print_status, reset_status

contains

  subroutine conf_init()
    integer :: ierror
    call MPI_Init(ierror)
    call MPI_Comm_rank(MPI_COMM_WORLD, conf_rank, ierror)
  end subroutine conf_init

  ! Collective over MPI_COMM_WORLD: ends one named check.
  subroutine conf_check(name)
    character(*), intent(in) :: name
    logical :: all
    integer :: ierror
    all = .false.
    call MPI_Allreduce(conf_local_ok, all, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierror)
    if (all) then
      call conf_print('ok ' // name)
    else
      call conf_print('FAILED ' // name)
      conf_any_failed = .true.
    end if
    conf_local_ok = .true.
  end subroutine conf_check

  ! Ends the run; the exit status is 1 when a check failed, as the C programs' is.
  subroutine conf_finish()
    integer :: ierror
    call MPI_Finalize(ierror)
    if (conf_any_failed) stop 1
  end subroutine conf_finish

  ! A status field as the program sees it: the sentinel it stored, or the value MPI wrote.
  ! MPI_ERROR is printed only `with_error`: after a single completion the standard leaves it
  ! alone, and Open MPI's Fortran MPI_Wait, MPI_Test, MPI_Waitany, MPI_Testany, MPI_Sendrecv and
  ! MPI_Request_get_status copy it from a C status they never initialised, so it holds whatever
  ! the stack held. Only the calls that hand the Fortran status to C (receives and probes) and
  ! those that complete several requests leave a value worth printing.
  subroutine print_status(what, status, datatype, with_error)
    character(*), intent(in) :: what
    integer, intent(in) :: status(MPI_STATUS_SIZE), datatype
    logical, intent(in) :: with_error
    integer :: count, ierror
    character(:), allocatable :: line
    count = -1
    call MPI_Get_count(status, datatype, count, ierror)
    line = what // ': source=' // str(status(MPI_SOURCE)) // ' tag=' // str(status(MPI_TAG)) // ' count=' // str(count)
    if (with_error) line = line // ' error=' // error_field(status(MPI_ERROR))
    call conf_print(line)
  end subroutine print_status

  subroutine reset_status(status)
    integer, intent(inout) :: status(MPI_STATUS_SIZE)
    status(MPI_SOURCE) = -7
    status(MPI_TAG) = -7
    status(MPI_ERROR) = CONF_SENTINEL
  end subroutine reset_status

end module conf
