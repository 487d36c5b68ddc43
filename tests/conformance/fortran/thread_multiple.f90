! Twin of thread_multiple.c through `use mpi`: a program that asks for MPI_THREAD_MULTIPLE and,
! when granted, exchanges messages from two OpenMP threads at once on communicators of their own.
! Under augur the run is predicted, and it must still run to the end and leave the program's
! exit status.
program thread_multiple
  use mpi
  use conf
  implicit none
  integer, parameter :: THREADS = 2, ROUNDS = 50
  integer :: provided, query, size, t, ierror
  integer :: comms(THREADS)
  logical :: ok(THREADS)

  call MPI_Init_thread(MPI_THREAD_MULTIPLE, provided, ierror)
  call MPI_Comm_rank(MPI_COMM_WORLD, conf_rank, ierror)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierror)
  if (provided == MPI_THREAD_MULTIPLE) then
    call conf_print('provided: MPI_THREAD_MULTIPLE')
  else
    call conf_print('provided: less')
  end if
  call MPI_Query_thread(query, ierror)
  call expect(query == provided, 'query_thread: the level provided')
  do t = 1, THREADS
    call MPI_Comm_dup(MPI_COMM_WORLD, comms(t), ierror)
  end do
  if (provided == MPI_THREAD_MULTIPLE) then
    !$omp parallel do num_threads(THREADS)
    do t = 1, THREADS
      call exchange(comms(t), ok(t))
    end do
    !$omp end parallel do
  else
    do t = 1, THREADS
      call exchange(comms(t), ok(t))
    end do
  end if
  do t = 1, THREADS
    call expect(ok(t), 'thread ' // str(t) // ': every exchange')
    call MPI_Comm_free(comms(t), ierror)
  end do
  call conf_check('thread-multiple')
  call conf_finish()

contains

  recursive subroutine exchange(comm, ok)
    integer, intent(in) :: comm
    logical, intent(out) :: ok
    integer :: round, in, out, right, left, ierror
    right = mod(conf_rank + 1, size)
    left = mod(conf_rank + size - 1, size)
    ok = .true.
    do round = 0, ROUNDS - 1
      out = 1000 * round + conf_rank
      call MPI_Sendrecv(out, 1, MPI_INTEGER, right, round, in, 1, MPI_INTEGER, left, round, comm, MPI_STATUS_IGNORE, &
                        ierror)
      if (in /= 1000 * round + left) ok = .false.
    end do
  end subroutine exchange

end program thread_multiple
