! Twin of proc_null.c through mpif.h: communication with MPI_PROC_NULL completes at once, moves
! no data, and a receive's status says source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0.
! MPI_ERROR is printed where the Fortran bindings define it (conf.f90, print_status).
program proc_null
  use conf
  implicit none
  include 'mpif.h'
  integer :: size, data(4), i, ierror, right, left
  ! One-element arrays: without an interface (mpif.h), gfortran wants one rank per argument.
  integer :: out(1), in(1)
  integer :: status(MPI_STATUS_SIZE), statuses(MPI_STATUS_SIZE, 2), requests(2), message
  logical :: flag

  call conf_init()
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierror)
  data = 7

  call MPI_Send(data, 4, MPI_INTEGER, MPI_PROC_NULL, 1, MPI_COMM_WORLD, ierror)
  call MPI_Ssend(data, 4, MPI_INTEGER, MPI_PROC_NULL, 1, MPI_COMM_WORLD, ierror)
  call reset_status(status)
  call MPI_Recv(data, 4, MPI_INTEGER, MPI_PROC_NULL, 1, MPI_COMM_WORLD, status, ierror)
  call expect_null_status('recv', status, .true., .true.)
  call expect(all(data == 7), 'recv: no data')

  call MPI_Isend(data, 4, MPI_INTEGER, MPI_PROC_NULL, 2, MPI_COMM_WORLD, requests(1), ierror)
  call MPI_Irecv(data, 4, MPI_INTEGER, MPI_PROC_NULL, 2, MPI_COMM_WORLD, requests(2), ierror)
  call reset_status(status)
  call MPI_Wait(requests(2), status, ierror)
  call expect_null_status('irecv+wait', status, .false., .false.)
  call reset_status(status)
  flag = .false.
  call MPI_Test(requests(1), flag, status, ierror)
  call expect(flag .and. requests(1) == MPI_REQUEST_NULL, 'isend+test: done')

  call MPI_Irecv(data, 4, MPI_INTEGER, MPI_PROC_NULL, 3, MPI_COMM_WORLD, requests(1), ierror)
  call MPI_Isend(data, 4, MPI_INTEGER, MPI_PROC_NULL, 3, MPI_COMM_WORLD, requests(2), ierror)
  call reset_status(statuses(:, 1))
  call reset_status(statuses(:, 2))
  call MPI_Waitall(2, requests, statuses, ierror)
  call expect_null_status('waitall irecv', statuses(:, 1), .false., .true.)

  call reset_status(status)
  call MPI_Sendrecv(data, 4, MPI_INTEGER, MPI_PROC_NULL, 4, data, 4, MPI_INTEGER, MPI_PROC_NULL, 4, MPI_COMM_WORLD, &
                    status, ierror)
  call expect_null_status('sendrecv both null', status, .true., .false.)
  call reset_status(status)
  call MPI_Sendrecv_replace(data, 4, MPI_INTEGER, MPI_PROC_NULL, 5, MPI_PROC_NULL, 5, MPI_COMM_WORLD, status, ierror)
  call expect_null_status('sendrecv_replace', status, .true., .false.)
  call expect(all(data == 7), 'sendrecv_replace: no data')

  ! An open chain: the first rank receives from nobody, the last sends to nobody.
  right = MPI_PROC_NULL
  if (conf_rank + 1 < size) right = conf_rank + 1
  left = MPI_PROC_NULL
  if (conf_rank > 0) left = conf_rank - 1
  out = 100 + conf_rank
  in = -1
  call reset_status(status)
  call MPI_Sendrecv(out, 1, MPI_INTEGER, right, 6, in, 1, MPI_INTEGER, left, 6, MPI_COMM_WORLD, status, ierror)
  if (left == MPI_PROC_NULL) then
    call expect_null_status('chain end', status, .true., .false.)
    call expect(in(1) == -1, 'chain end: no data')
  else
    call expect(in(1) == 100 + left .and. status(MPI_SOURCE) == left .and. status(MPI_TAG) == 6, &
                'chain: data, source and tag from the left')
  end if

  call reset_status(status)
  call MPI_Probe(MPI_PROC_NULL, 7, MPI_COMM_WORLD, status, ierror)
  call expect_null_status('probe', status, .true., .true.)
  call reset_status(status)
  flag = .false.
  call MPI_Iprobe(MPI_PROC_NULL, 7, MPI_COMM_WORLD, flag, status, ierror)
  call expect(flag, 'iprobe: flag')
  call expect_null_status('iprobe', status, .true., .true.)
  call reset_status(status)
  call MPI_Mprobe(MPI_PROC_NULL, 8, MPI_COMM_WORLD, message, status, ierror)
  call expect(message == MPI_MESSAGE_NO_PROC, 'mprobe: MPI_MESSAGE_NO_PROC')
  call expect_null_status('mprobe', status, .true., .true.)
  call reset_status(status)
  call MPI_Mrecv(data, 4, MPI_INTEGER, message, status, ierror)
  call expect(message == MPI_MESSAGE_NULL, 'mrecv: message null')
  call expect_null_status('mrecv', status, .true., .true.)
  flag = .false.
  call MPI_Improbe(MPI_PROC_NULL, 9, MPI_COMM_WORLD, flag, message, status, ierror)
  call expect(flag .and. message == MPI_MESSAGE_NO_PROC, 'improbe: flag and MPI_MESSAGE_NO_PROC')
  call MPI_Imrecv(data, 4, MPI_INTEGER, message, requests(1), ierror)
  call reset_status(status)
  call MPI_Wait(requests(1), status, ierror)
  call expect_null_status('imrecv+wait', status, .false., .false.)
  call expect(all(data == 7), 'imrecv: no data')

  ! Persistent requests to nobody can be started again and again.
  call MPI_Send_init(data, 4, MPI_INTEGER, MPI_PROC_NULL, 10, MPI_COMM_WORLD, requests(1), ierror)
  call MPI_Recv_init(data, 4, MPI_INTEGER, MPI_PROC_NULL, 10, MPI_COMM_WORLD, requests(2), ierror)
  do i = 0, 2
    call MPI_Startall(2, requests, ierror)
    call MPI_Waitall(2, requests, statuses, ierror)
    call expect(requests(1) /= MPI_REQUEST_NULL .and. requests(2) /= MPI_REQUEST_NULL, 'persistent: requests kept')
    if (i == 0) call expect_null_status('persistent recv', statuses(:, 2), .false., .true.)
  end do
  call MPI_Request_free(requests(1), ierror)
  call MPI_Request_free(requests(2), ierror)
  call conf_check('proc-null')
  call conf_finish()

contains

  character(16) function rank_name(rank)
    integer, intent(in) :: rank
    if (rank == MPI_PROC_NULL) then
      rank_name = 'PROC_NULL'
    else if (rank == MPI_ANY_SOURCE) then
      rank_name = 'ANY_SOURCE'
    else
      write (rank_name, '(i0)') rank
    end if
  end function rank_name

  character(16) function tag_name(tag)
    integer, intent(in) :: tag
    if (tag == MPI_ANY_TAG) then
      tag_name = 'ANY_TAG'
    else
      write (tag_name, '(i0)') tag
    end if
  end function tag_name

  ! MPICH 4.0 leaves other values than the standard's in the status of a request-based receive
  ! from MPI_PROC_NULL, so those are printed for comparison, and only blocking calls are held to
  ! the standard (`strict`).
  subroutine expect_null_status(what, status, strict, with_error)
    character(*), intent(in) :: what
    integer, intent(in) :: status(MPI_STATUS_SIZE)
    logical, intent(in) :: strict, with_error
    integer :: count, ierror
    character(:), allocatable :: line
    count = -1
    call MPI_Get_count(status, MPI_INTEGER, count, ierror)
    call expect(count == 0, what // ': count 0')
    if (strict) call expect(status(MPI_SOURCE) == MPI_PROC_NULL .and. status(MPI_TAG) == MPI_ANY_TAG, &
                            what // ': source MPI_PROC_NULL, tag MPI_ANY_TAG')
    line = what // ': source=' // trim(rank_name(status(MPI_SOURCE))) // ' tag=' // trim(tag_name(status(MPI_TAG))) // &
           ' count=' // str(count)
    if (with_error) then
      if (status(MPI_ERROR) == CONF_SENTINEL) then
        line = line // ' error=untouched'
      else if (status(MPI_ERROR) == MPI_SUCCESS) then
        line = line // ' error=SUCCESS'
      else
        line = line // ' error=other'
      end if
    end if
    call conf_print(line)
  end subroutine expect_null_status

end program proc_null
