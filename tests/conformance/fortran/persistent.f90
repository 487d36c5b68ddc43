! Twin of persistent.c through `use mpi`: persistent requests (send_init/recv_init and the
! synchronous and ready kinds) started with MPI_Start and MPI_Startall, completed, changed in
! place and started again; inactive requests waited for and freed. Ranks exchange around a ring.
program persistent
  use mpi
  use conf
  implicit none
  integer, parameter :: ROUNDS = 5, LENGTH = 6
  integer :: size, right, left, round, i, ierror
  integer, asynchronous :: out(0:LENGTH - 1), in(0:LENGTH - 1), big_out(0:4999), big_in(0:4999)
  integer :: requests(4), statuses(MPI_STATUS_SIZE, 4), status(MPI_STATUS_SIZE)
  logical :: flag

  call conf_init()
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierror)
  right = mod(conf_rank + 1, size)
  left = mod(conf_rank + size - 1, size)

  call MPI_Recv_init(in, LENGTH, MPI_INTEGER, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, requests(1), ierror)
  call MPI_Send_init(out, LENGTH, MPI_INTEGER, right, 1, MPI_COMM_WORLD, requests(2), ierror)
  call MPI_Recv_init(big_in, 5000, MPI_INTEGER, left, 2, MPI_COMM_WORLD, requests(3), ierror)
  call MPI_Ssend_init(big_out, 5000, MPI_INTEGER, right, 2, MPI_COMM_WORLD, requests(4), ierror)

  ! Waiting for requests never started returns at once with an empty status.
  call reset_status(status)
  call MPI_Wait(requests(1), status, ierror)
  call expect(requests(1) /= MPI_REQUEST_NULL .and. status(MPI_SOURCE) == MPI_ANY_SOURCE .and. &
              status(MPI_TAG) == MPI_ANY_TAG, 'wait on an inactive request: empty status, request kept')
  call print_status('wait on an inactive request', status, MPI_INTEGER, .false.)
  call MPI_Test(requests(2), flag, status, ierror)
  call expect(flag .and. requests(2) /= MPI_REQUEST_NULL, 'test on an inactive request: flag, request kept')

  do round = 0, ROUNDS - 1
    out = [(1000 * round + 10 * conf_rank + i, i = 0, LENGTH - 1)]
    big_out = [(round * 7 + conf_rank + i, i = 0, 4999)]
    if (mod(round, 2) == 0) then
      call MPI_Startall(4, requests, ierror)
    else
      call MPI_Start(requests(3), ierror)
      call MPI_Start(requests(1), ierror)
      call MPI_Start(requests(4), ierror)
      call MPI_Start(requests(2), ierror)
    end if
    call reset_status(statuses(:, 1))
    call MPI_Waitall(4, requests, statuses, ierror)
    call expect(all(requests /= MPI_REQUEST_NULL), 'ring: requests kept')
    call expect(statuses(MPI_SOURCE, 1) == left .and. statuses(MPI_TAG, 1) == 1 .and. statuses(MPI_SOURCE, 3) == left, &
                'ring: statuses from the left')
    call expect(all(in == [(1000 * round + 10 * left + i, i = 0, LENGTH - 1)]), 'ring: small data')
    call expect(big_in(0) == round * 7 + left .and. big_in(4999) == round * 7 + left + 4999, 'ring: large data')
    if (round == ROUNDS - 1) call print_status("last round's receive", statuses(:, 1), MPI_INTEGER, .true.)
  end do
  do i = 1, 4
    call MPI_Request_free(requests(i), ierror)
  end do
  call expect(all(requests == MPI_REQUEST_NULL), 'freed requests are null')
  call conf_check('persistent-ring')

  ! A ready send needs its receive posted first: the barrier says it is.
  call MPI_Recv_init(in, LENGTH, MPI_INTEGER, left, 3, MPI_COMM_WORLD, requests(1), ierror)
  call MPI_Rsend_init(out, LENGTH, MPI_INTEGER, right, 3, MPI_COMM_WORLD, requests(2), ierror)
  do round = 0, 2
    out(0) = round * 100 + conf_rank
    call MPI_Start(requests(1), ierror)
    call MPI_Barrier(MPI_COMM_WORLD, ierror)
    call MPI_Start(requests(2), ierror)
    call MPI_Wait(requests(2), MPI_STATUS_IGNORE, ierror)
    flag = .false.
    do while (.not. flag)
      call MPI_Test(requests(1), flag, status, ierror)
    end do
    call expect(in(0) == round * 100 + left .and. status(MPI_SOURCE) == left, 'ready: data from the left')
    call MPI_Barrier(MPI_COMM_WORLD, ierror)
  end do
  call MPI_Request_free(requests(1), ierror)
  call MPI_Request_free(requests(2), ierror)
  call conf_check('persistent-ready')

  ! Freeing an active persistent send is legal: it still completes.
  if (conf_rank == 0) then
    out(0) = 77
    call MPI_Send_init(out, 1, MPI_INTEGER, mod(1, size), 4, MPI_COMM_WORLD, requests(1), ierror)
    call MPI_Start(requests(1), ierror)
    call MPI_Request_free(requests(1), ierror)
  end if
  if (conf_rank == mod(1, size)) then
    call MPI_Recv(in, 1, MPI_INTEGER, 0, 4, MPI_COMM_WORLD, status, ierror)
    call expect(in(0) == 77, 'freed while active: the data arrives')
  end if
  call conf_check('persistent-freed-while-active')
  call conf_finish()
end program persistent
