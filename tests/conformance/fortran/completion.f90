! Twin of completion.c through `use mpi`: MPI_Waitany, MPI_Testany, MPI_Waitsome, MPI_Testsome,
! MPI_Testall and MPI_Waitall over arrays mixing MPI_REQUEST_NULL, inactive persistent requests
! and live receives. Fortran's indices count from 1: the program checks them as such and prints
! them less one, so its lines are the C program's. Rank 1 sends, rank 0 receives.
program completion
  use mpi
  use conf
  implicit none
  integer, parameter :: N = 5
  integer :: index, outcount, indices(N), ierror, done, v, go
  integer :: requests(N), status(MPI_STATUS_SIZE), statuses(MPI_STATUS_SIZE, N)
  integer, asynchronous :: a, b, c, got(N)
  logical :: flag

  call conf_init()
  a = -1
  b = -1
  c = -1

  if (conf_rank == 0) then
    got = 0
    ! [null, inactive persistent, recv tag 1, null, recv tag 2]
    requests(1) = MPI_REQUEST_NULL
    call MPI_Recv_init(c, 1, MPI_INTEGER, 1, 9, MPI_COMM_WORLD, requests(2), ierror)
    requests(4) = MPI_REQUEST_NULL

    ! Nothing active: every call returns at once.
    requests(3) = MPI_REQUEST_NULL
    requests(5) = MPI_REQUEST_NULL
    call reset_status(status)
    call MPI_Waitany(N, requests, index, status, ierror)
    index = undefined_as_such(index)
    call expect(index == MPI_UNDEFINED .and. status(MPI_SOURCE) == MPI_ANY_SOURCE .and. status(MPI_TAG) == MPI_ANY_TAG, &
                'waitany, none active: undefined index, empty status')
    call conf_print('waitany, none active: index=' // defined(index))
    call print_status('waitany, none active', status, MPI_INTEGER, .false.)
    call reset_status(status)
    flag = .false.
    call MPI_Testany(N, requests, index, flag, status, ierror)
    index = undefined_as_such(index)
    call expect(flag .and. index == MPI_UNDEFINED, 'testany, none active: flag, undefined index')
    call conf_print('testany, none active: flag=' // str(int_of(flag)) // ' index=' // defined(index))
    call MPI_Waitsome(N, requests, outcount, indices, statuses, ierror)
    call expect(outcount == MPI_UNDEFINED, 'waitsome, none active: undefined')
    call MPI_Testsome(N, requests, outcount, indices, statuses, ierror)
    call expect(outcount == MPI_UNDEFINED, 'testsome, none active: undefined')
    flag = .false.
    call MPI_Testall(N, requests, flag, statuses, ierror)
    call expect(flag .and. requests(2) /= MPI_REQUEST_NULL, 'testall, none active: flag, persistent kept')

    call MPI_Irecv(a, 1, MPI_INTEGER, 1, 1, MPI_COMM_WORLD, requests(3), ierror)
    call MPI_Irecv(b, 1, MPI_INTEGER, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, requests(5), ierror)
    call MPI_Send(a, 0, MPI_INTEGER, 1, 0, MPI_COMM_WORLD, ierror) ! go
    ! Tag 2 is sent first, then tag 1 after an acknowledgement, so the order is fixed.
    call reset_status(status)
    call MPI_Waitany(N, requests, index, status, ierror)
    call expect(index == 5 .and. b == 20 .and. status(MPI_TAG) == 2 .and. status(MPI_SOURCE) == 1 .and. &
                requests(5) == MPI_REQUEST_NULL, 'waitany: the fifth request')
    call conf_print('waitany: index=' // str(index - 1))
    call print_status('waitany', status, MPI_INTEGER, .false.)
    call MPI_Send(a, 0, MPI_INTEGER, 1, 0, MPI_COMM_WORLD, ierror)
    flag = .false.
    do while (.not. flag)
      call reset_status(status)
      call MPI_Testany(N, requests, index, flag, status, ierror)
    end do
    call expect(index == 3 .and. a == 10 .and. status(MPI_TAG) == 1, 'testany: the third request')
    call conf_print('testany: index=' // str(index - 1))
    call print_status('testany', status, MPI_INTEGER, .false.)
    call expect(requests(2) /= MPI_REQUEST_NULL .and. requests(3) == MPI_REQUEST_NULL, 'testany: requests after')

    ! Three receives and the persistent one started; completed with Waitsome and Testsome.
    call MPI_Irecv(got(1), 1, MPI_INTEGER, 1, 3, MPI_COMM_WORLD, requests(1), ierror)
    call MPI_Start(requests(2), ierror)
    call MPI_Irecv(got(3), 1, MPI_INTEGER, 1, 4, MPI_COMM_WORLD, requests(3), ierror)
    call MPI_Irecv(got(5), 1, MPI_INTEGER, 1, 5, MPI_COMM_WORLD, requests(5), ierror)
    call MPI_Send(a, 0, MPI_INTEGER, 1, 0, MPI_COMM_WORLD, ierror)
    call MPI_Waitsome(N, requests, outcount, indices, statuses, ierror)
    call expect(outcount /= MPI_UNDEFINED .and. outcount >= 1, 'waitsome: some done')
    done = expect_some(outcount, indices, statuses)
    do while (done < 4)
      call MPI_Testsome(N, requests, outcount, indices, statuses, ierror)
      call expect(outcount /= MPI_UNDEFINED, 'testsome: defined')
      if (outcount == MPI_UNDEFINED) exit
      done = done + expect_some(outcount, indices, statuses)
    end do
    call expect(got(1) == 30 .and. c == 90 .and. got(3) == 40 .and. got(5) == 50, 'waitsome and testsome: data')
    call expect(requests(1) == MPI_REQUEST_NULL .and. requests(2) /= MPI_REQUEST_NULL .and. &
                requests(5) == MPI_REQUEST_NULL, 'waitsome and testsome: requests after')
    call MPI_Waitsome(N, requests, outcount, indices, statuses, ierror)
    call expect(outcount == MPI_UNDEFINED, 'waitsome after all done: undefined')
    call conf_print('waitsome after all done: outcount=' // defined(outcount))
    call MPI_Request_free(requests(2), ierror)
  else if (conf_rank == 1) then
    call MPI_Recv(go, 0, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierror)
    v = 20
    call MPI_Send(v, 1, MPI_INTEGER, 0, 2, MPI_COMM_WORLD, ierror)
    call MPI_Recv(go, 0, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierror)
    v = 10
    call MPI_Send(v, 1, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, ierror)
    call MPI_Recv(go, 0, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierror)
    v = 50
    call MPI_Send(v, 1, MPI_INTEGER, 0, 5, MPI_COMM_WORLD, ierror)
    v = 40
    call MPI_Send(v, 1, MPI_INTEGER, 0, 4, MPI_COMM_WORLD, ierror)
    v = 90
    call MPI_Send(v, 1, MPI_INTEGER, 0, 9, MPI_COMM_WORLD, ierror)
    v = 30
    call MPI_Send(v, 1, MPI_INTEGER, 0, 3, MPI_COMM_WORLD, ierror)
  end if
  call conf_check('completion')
  call conf_finish()

contains

  ! MPICH before 4.1 adds one to the MPI_UNDEFINED that MPI_Waitany and MPI_Testany give when
  ! no request is active, as to any index; read as MPI_UNDEFINED, which it is in C.
  integer function undefined_as_such(index)
    integer, intent(in) :: index
    undefined_as_such = merge(MPI_UNDEFINED, index, index == MPI_UNDEFINED + 1)
  end function undefined_as_such

  function defined(value) result(s)
    integer, intent(in) :: value
    character(:), allocatable :: s
    if (value == MPI_UNDEFINED) then
      s = 'UNDEFINED'
    else
      s = 'defined'
    end if
  end function defined

  ! Entry 4 is always null; the others are the receives on tags 3, 9 (persistent), 4 and 5.
  integer function expect_some(outcount, indices, statuses)
    integer, intent(in) :: outcount, indices(:), statuses(:, :)
    integer, parameter :: tags(N) = [3, 9, 4, -1, 5]
    integer :: k
    expect_some = 0
    if (outcount == MPI_UNDEFINED) return
    do k = 1, outcount
      call expect(indices(k) >= 1 .and. indices(k) <= N .and. indices(k) /= 4, 'a 1-based index of a live request')
      if (indices(k) >= 1 .and. indices(k) <= N) &
        call expect(statuses(MPI_SOURCE, k) == 1 .and. statuses(MPI_TAG, k) == tags(indices(k)), &
                    'the status of request ' // str(indices(k)))
    end do
    expect_some = outcount
  end function expect_some

end program completion
