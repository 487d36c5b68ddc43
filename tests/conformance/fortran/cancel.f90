! Twin of cancel.c through `use mpi`: MPI_Cancel and MPI_Test_cancelled, whose flag is a
! logical. A receive that nothing matches is cancelled; one already complete is not, and keeps
! its data; a cancelled persistent receive can be started again. Whether a send can be cancelled
! is the library's choice: the outcome is printed, and the message must arrive exactly when the
! cancel failed.
!
! The C program polls MPI_Request_get_status with MPI_STATUS_IGNORE; this one passes a status,
! since Open MPI 4.1's Fortran MPI_Request_get_status returns a false flag without looking at the
! request when given MPI_STATUS_IGNORE, and such a loop would never end.
program cancel
  use mpi
  use conf
  implicit none
  integer :: request, status(MPI_STATUS_SIZE), count, ierror, i
  ! Single values are arrays of one, as the buffers passed to the same calls are arrays: MPICH's
  ! mpi module gives its choice-buffer routines no interface, and gfortran wants one rank per
  ! argument across calls.
  integer :: go(1), out(1)
  integer, asynchronous :: data(4), in(1), outs(4)
  logical :: flag, cancelled, sent

  call conf_init()
  data = 0

  if (conf_rank == 0) then
    call MPI_Irecv(data, 4, MPI_INTEGER, 1, 99, MPI_COMM_WORLD, request, ierror)
    call MPI_Cancel(request, ierror)
    call MPI_Wait(request, status, ierror)
    call MPI_Test_cancelled(status, cancelled, ierror)
    call expect(cancelled .and. request == MPI_REQUEST_NULL, 'unmatched recv: cancelled and null')
    call conf_print('unmatched recv: cancelled=' // str(int_of(cancelled)))

    call MPI_Irecv(data, 4, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, request, ierror)
    call MPI_Cancel(request, ierror)
    call MPI_Wait(request, status, ierror)
    call MPI_Test_cancelled(status, cancelled, ierror)
    call expect(cancelled, 'unmatched wildcard recv: cancelled')
    call conf_print('unmatched wildcard recv: cancelled=' // str(int_of(cancelled)))
  end if
  call MPI_Barrier(MPI_COMM_WORLD, ierror)

  ! A receive that has completed but was not yet waited for.
  if (conf_rank == 1) then
    outs = [1, 2, 3, 4]
    call MPI_Send(outs, 4, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, ierror)
  else if (conf_rank == 0) then
    call MPI_Irecv(data, 4, MPI_INTEGER, 1, 1, MPI_COMM_WORLD, request, ierror)
    flag = .false.
    do while (.not. flag)
      call MPI_Request_get_status(request, flag, status, ierror)
    end do
    call MPI_Cancel(request, ierror)
    call MPI_Wait(request, status, ierror)
    call MPI_Test_cancelled(status, cancelled, ierror)
    call MPI_Get_count(status, MPI_INTEGER, count, ierror)
    call expect(.not. cancelled .and. count == 4 .and. data(1) == 1 .and. data(4) == 4, &
                'completed recv: not cancelled, data kept')
    call conf_print('completed recv: cancelled=' // str(int_of(cancelled)) // ' count=' // str(count))
  end if
  call conf_check('cancel-recv')

  if (conf_rank == 0) then
    in(1) = -1
    call MPI_Recv_init(in, 1, MPI_INTEGER, 1, 2, MPI_COMM_WORLD, request, ierror)
    call MPI_Start(request, ierror)
    call MPI_Cancel(request, ierror)
    call MPI_Wait(request, status, ierror)
    call MPI_Test_cancelled(status, cancelled, ierror)
    call expect(cancelled .and. request /= MPI_REQUEST_NULL, 'persistent recv: cancelled, request kept')
    call conf_print('persistent recv: cancelled=' // str(int_of(cancelled)))
    out(1) = int_of(cancelled)
    call MPI_Send(out, 1, MPI_INTEGER, 1, 3, MPI_COMM_WORLD, ierror)
    do i = 0, 1
      call MPI_Start(request, ierror)
      call MPI_Wait(request, status, ierror)
      call MPI_Test_cancelled(status, cancelled, ierror)
      call expect(.not. cancelled .and. in(1) == 10 + i .and. status(MPI_SOURCE) == 1, 'persistent recv started again')
    end do
    call MPI_Request_free(request, ierror)
  else if (conf_rank == 1) then
    call MPI_Recv(go, 1, MPI_INTEGER, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierror)
    do i = 0, 1
      out(1) = 10 + i
      call MPI_Send(out, 1, MPI_INTEGER, 0, 2, MPI_COMM_WORLD, ierror)
    end do
  end if
  call conf_check('cancel-persistent-recv')

  if (conf_rank == 1) then
    outs = [5, 6, 7, 8]
    call MPI_Isend(outs, 4, MPI_INTEGER, 0, 4, MPI_COMM_WORLD, request, ierror)
    call MPI_Cancel(request, ierror)
    call MPI_Wait(request, status, ierror)
    call MPI_Test_cancelled(status, cancelled, ierror)
    out(1) = int_of(cancelled)
    call MPI_Send(out, 1, MPI_INTEGER, 0, 5, MPI_COMM_WORLD, ierror)
  else if (conf_rank == 0) then
    call MPI_Recv(in, 1, MPI_INTEGER, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierror)
    call conf_print('send: cancelled=' // str(in(1)))
    sent = in(1) == 0
    if (sent) then
      call MPI_Recv(data, 4, MPI_INTEGER, 1, 4, MPI_COMM_WORLD, status, ierror)
      call expect(data(1) == 5 .and. data(4) == 8, 'send not cancelled: its data arrives')
    end if
  end if
  call MPI_Barrier(MPI_COMM_WORLD, ierror)
  ! Nothing else is in flight now: a cancelled send must have left nothing behind.
  if (conf_rank == 0) then
    call MPI_Iprobe(1, 4, MPI_COMM_WORLD, flag, MPI_STATUS_IGNORE, ierror)
    call expect(.not. flag, 'nothing left behind')
  end if
  call conf_check('cancel-send')
  call conf_finish()
end program cancel
