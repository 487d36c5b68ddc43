! The checking calls for programs that `use mpi_f08` (conf_base.f90 says what the helpers do):
! the same as conf.f90's, through the mpi_f08 interface, with its optional error arguments left
! out and statuses and handles of its derived types.
module conf_f08
  use mpi_f08
  use conf_base
  implicit none
  private
  public :: conf_rank, CONF_SENTINEL, expect, conf_print, str, int_of
  public :: conf_init, conf_check, conf_finish, print_status, reset_status

contains

  subroutine conf_init()
    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, conf_rank)
  end subroutine conf_init

  ! Collective over MPI_COMM_WORLD: ends one named check.
  subroutine conf_check(name)
    character(*), intent(in) :: name
    logical :: all
    all = .false.
    call MPI_Allreduce(conf_local_ok, all, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD)
    if (all) then
      call conf_print('ok ' // name)
    else
      call conf_print('FAILED ' // name)
      conf_any_failed = .true.
    end if
    conf_local_ok = .true.
  end subroutine conf_check

  subroutine conf_finish()
    call MPI_Finalize()
    if (conf_any_failed) stop 1
  end subroutine conf_finish

  ! As conf.f90's: MPI_ERROR only `with_error`.
  subroutine print_status(what, status, datatype, with_error)
    character(*), intent(in) :: what
    type(MPI_Status), intent(in) :: status
    type(MPI_Datatype), intent(in) :: datatype
    logical, intent(in) :: with_error
    integer :: count
    character(:), allocatable :: line
    count = -1
    call MPI_Get_count(status, datatype, count)
    line = what // ': source=' // str(status%MPI_SOURCE) // ' tag=' // str(status%MPI_TAG) // ' count=' // str(count)
    if (with_error) line = line // ' error=' // error_field(status%MPI_ERROR)
    call conf_print(line)
  end subroutine print_status

  subroutine reset_status(status)
    type(MPI_Status), intent(inout) :: status
    status%MPI_SOURCE = -7
    status%MPI_TAG = -7
    status%MPI_ERROR = CONF_SENTINEL
  end subroutine reset_status

end module conf_f08
