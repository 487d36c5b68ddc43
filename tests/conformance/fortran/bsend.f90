! Twin of bsend.c through `use mpi_f08`: buffered sends. The attached buffer holds exactly the
! program's messages (MPI_BSEND_OVERHEAD each); the receiver posts its receives only after the
! sender has started detaching, so the messages are still pending at detach, which must wait for
! them. The sender then overwrites the detached buffer, which must no longer matter. A buffer too
! small for a message makes MPI_Bsend fail with MPI_ERR_BUFFER.
!
! MPI_Buffer_detach's address argument is a TYPE(C_PTR) that Open MPI 4.1 never sets, so only the
! detached size is checked, where the C program checks the address too.
program bsend
  use, intrinsic :: iso_c_binding, only: c_ptr
  use mpi_f08
  use conf_f08
  implicit none
  integer, parameter :: MESSAGES = 4, LENGTH = 20000 ! 80 KB each: above the libraries' eager limits
  character, allocatable, target, asynchronous :: buffer(:)
  character, target, asynchronous :: tiny(MPI_BSEND_OVERHEAD + 64)
  integer, allocatable :: out(:), in(:)
  integer :: message, i, size, pack_size, count, detached_size, error, class, sent
  integer :: expected_tags(3), firsts(3)
  integer, asynchronous :: go, small(3)
  type(c_ptr) :: detached
  type(MPI_Request) :: request, requests(2)
  type(MPI_Status) :: status
  type(MPI_Comm) :: trial

  call conf_init()
  call MPI_Pack_size(LENGTH, MPI_INTEGER, MPI_COMM_WORLD, pack_size)
  size = MESSAGES * (pack_size + MPI_BSEND_OVERHEAD)
  allocate (buffer(size), out(0:LENGTH - 1), in(0:LENGTH - 1))

  if (conf_rank == 0) then
    go = 1
    call MPI_Buffer_attach(buffer, size)
    do message = 0, MESSAGES - 1
      out = [(value(message, i), i = 0, LENGTH - 1)]
      call MPI_Bsend(out, LENGTH, MPI_INTEGER, 1, message, MPI_COMM_WORLD)
    end do
    ! The program's buffer may be reused once MPI_Bsend returns.
    out = 0
    call MPI_Isend(go, 1, MPI_INTEGER, 1, 100, MPI_COMM_WORLD, request)
    detached_size = 0
    call MPI_Buffer_detach(detached, detached_size)
    call expect(detached_size == size, 'detach: the attached size')
    buffer = char(255)
    call MPI_Wait(request, MPI_STATUS_IGNORE)
  else if (conf_rank == 1) then
    go = 0
    call MPI_Recv(go, 1, MPI_INTEGER, 0, 100, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    ! Last message first: each was sent on its own tag.
    do message = MESSAGES - 1, 0, -1
      call MPI_Recv(in, LENGTH, MPI_INTEGER, 0, message, MPI_COMM_WORLD, status)
      call MPI_Get_count(status, MPI_INTEGER, count)
      call expect(count == LENGTH .and. status%MPI_TAG == message, 'message ' // str(message) // ': count and tag')
      do i = 0, LENGTH - 1, 997
        call expect(in(i) == value(message, i), 'message ' // str(message) // ' value ' // str(i))
      end do
      call expect(in(LENGTH - 1) == value(message, LENGTH - 1), 'message ' // str(message) // ': last value')
    end do
  end if
  call conf_check('bsend-detach-pending')

  ! Attach again; buffered sends of every kind, received in order with a wildcard tag.
  if (conf_rank == 0) then
    small = [1, 2, 3]
    call MPI_Buffer_attach(buffer, size)
    call MPI_Ibsend(small, 3, MPI_INTEGER, 1, 7, MPI_COMM_WORLD, requests(1))
    call MPI_Bsend_init(small, 3, MPI_INTEGER, 1, 8, MPI_COMM_WORLD, requests(2))
    call MPI_Start(requests(2))
    call MPI_Waitall(2, requests, MPI_STATUSES_IGNORE)
    small(1) = 4
    call MPI_Start(requests(2))
    call MPI_Wait(requests(2), MPI_STATUS_IGNORE)
    call MPI_Request_free(requests(2))
    call MPI_Buffer_detach(detached, detached_size)
    call expect(detached_size == size, 'detach again: the attached size')
  else if (conf_rank == 1) then
    expected_tags = [7, 8, 8]
    firsts = [1, 1, 4]
    do i = 1, 3
      call MPI_Recv(small, 3, MPI_INTEGER, 0, MPI_ANY_TAG, MPI_COMM_WORLD, status)
      call expect(status%MPI_TAG == expected_tags(i) .and. small(1) == firsts(i) .and. small(3) == 3, &
                  'buffered message ' // str(i))
    end do
  end if
  call conf_check('bsend-kinds')

  ! Whether the library refuses is printed, and the receiver is told whether to expect the
  ! message. The attempt has a communicator of its own: Open MPI 4.1 loses the failed send's
  ! place in the message order, and nothing later on that communicator from the same sender would
  ! ever match.
  call MPI_Comm_dup(MPI_COMM_WORLD, trial)
  call MPI_Comm_set_errhandler(trial, MPI_ERRORS_RETURN)
  if (conf_rank == 0) then
    out = 0
    call MPI_Buffer_attach(tiny, MPI_BSEND_OVERHEAD + 64)
    call MPI_Bsend(out, LENGTH, MPI_INTEGER, 1, 9, trial, error)
    call MPI_Error_class(error, class)
    if (class == MPI_ERR_BUFFER) then
      call conf_print('bsend beyond the buffer: MPI_ERR_BUFFER')
    else if (class == MPI_SUCCESS) then
      call conf_print('bsend beyond the buffer: MPI_SUCCESS')
    else
      call conf_print('bsend beyond the buffer: another error')
    end if
    call MPI_Buffer_detach(detached, detached_size)
    sent = int_of(class == MPI_SUCCESS)
    call MPI_Send(sent, 1, MPI_INTEGER, 1, 10, MPI_COMM_WORLD)
  else if (conf_rank == 1) then
    call MPI_Recv(sent, 1, MPI_INTEGER, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    if (sent /= 0) then
      call MPI_Recv(in, LENGTH, MPI_INTEGER, 0, 9, trial, status)
      call MPI_Get_count(status, MPI_INTEGER, count)
      call expect(count == LENGTH, 'the message the library took')
    end if
  end if
  call MPI_Comm_free(trial)
  call conf_check('bsend-buffer-too-small')
  deallocate (buffer, out, in)
  call conf_finish()

contains

  integer function value(message, i)
    integer, intent(in) :: message, i
    value = message * 1000003 + i
  end function value

end program bsend
