! Twin of mprobe.c through `use mpi`: a message taken by MPI_Mprobe or MPI_Improbe belongs to its
! handle and is never matched by a later receive or probe; handles are received out of probe
! order, with MPI_Mrecv and MPI_Imrecv, into the program's datatype. The pairs of integers are
! received from MPI_BOTTOM: the type is an hindexed pair at the buffer's absolute address, so two
! of them fill the same four integers as the C program's contiguous pairs. Ranks 1 and 2 send to
! rank 0 (more ranks idle).
program mprobe
  use mpi
  use conf
  implicit none
  integer, parameter :: LENGTH = 3000 ! above the eager limit once, below it otherwise
  integer :: size, senders, s, i, count, ierror, found, received
  integer :: status(MPI_STATUS_SIZE), messages(2), message, sources(2), counts(2), requests(2), pair
  integer, asynchronous :: values(2)
  integer, allocatable, target, asynchronous :: out(:), in(:)
  integer(MPI_ADDRESS_KIND) :: address(1)
  logical :: flag

  call conf_init()
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierror)
  senders = merge(2, 1, size > 2)

  if (conf_rank >= 1 .and. conf_rank <= senders) then
    ! Tag 1 twice (a short and a long message), then tag 2.
    allocate (out(0:LENGTH - 1))
    out = [(first_value(conf_rank, 1, 0) + i, i = 0, LENGTH - 1)]
    call MPI_Send(out, 4, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, ierror)
    out = [(first_value(conf_rank, 1, 1) + i, i = 0, LENGTH - 1)]
    call MPI_Send(out, LENGTH, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, ierror)
    out(0) = first_value(conf_rank, 2, 0)
    call MPI_Send(out, 1, MPI_INTEGER, 0, 2, MPI_COMM_WORLD, ierror)
    deallocate (out)
  else if (conf_rank == 0) then
    allocate (in(0:LENGTH - 1))
    ! The first tag-1 message of each sender, last sender first.
    do s = 1, senders
      call MPI_Mprobe(senders - s + 1, 1, MPI_COMM_WORLD, messages(s), status, ierror)
      sources(s) = status(MPI_SOURCE)
      call MPI_Get_count(status, MPI_INTEGER, counts(s), ierror)
      call expect(counts(s) == 4 .and. sources(s) == senders - s + 1, 'mprobe: the short message, last sender first')
    end do
    ! A wildcard receive now gets only the second tag-1 messages; which sender comes first
    ! varies, so each is checked by its source.
    do s = 1, senders
      call MPI_Recv(in, LENGTH, MPI_INTEGER, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, status, ierror)
      call MPI_Get_count(status, MPI_INTEGER, count, ierror)
      call expect(count == LENGTH .and. in(0) == first_value(status(MPI_SOURCE), 1, 1) .and. &
                  in(LENGTH - 1) == first_value(status(MPI_SOURCE), 1, 1) + LENGTH - 1, 'recv: the long message')
    end do
    ! The probed messages, last probed first, into pairs of integers at MPI_BOTTOM. `in` is
    ! ASYNCHRONOUS, so the compiler reads it afresh after MPI_Mrecv; MPI_F_sync_reg is not
    ! called, since MPICH 4.0's MPI_F_SYNC_REG writes to an error argument it does not have.
    call MPI_Get_address(in, address(1), ierror)
    call MPI_Type_create_hindexed(1, [2], address, MPI_INTEGER, pair, ierror)
    call MPI_Type_commit(pair, ierror)
    do s = senders, 1, -1
      in(0:3) = -1
      call MPI_Mrecv(MPI_BOTTOM, 2, pair, messages(s), status, ierror)
      call MPI_Get_count(status, pair, count, ierror)
      call expect(messages(s) == MPI_MESSAGE_NULL .and. count == 2 .and. status(MPI_SOURCE) == sources(s) .and. &
                  status(MPI_TAG) == 1, 'mrecv: the probed message')
      call expect(in(0) == first_value(sources(s), 1, 0) .and. in(3) == first_value(sources(s), 1, 0) + 3, &
                  'mrecv: its data at MPI_BOTTOM')
    end do
    call MPI_Type_free(pair, ierror)
    call conf_print('mprobe: ' // str(senders) // ' sender(s), first counts ' // str(counts(1)) // ', pair count 2')

    ! Tag 2 from any source through Improbe and Imrecv, completed together.
    values = -1
    found = 0
    do while (found < senders)
      call MPI_Improbe(MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, flag, message, status, ierror)
      if (.not. flag) cycle
      call expect(status(MPI_SOURCE) >= 1 .and. status(MPI_SOURCE) <= senders, 'improbe: a sender')
      received = status(MPI_SOURCE)
      found = found + 1
      call MPI_Imrecv(values(received), 1, MPI_INTEGER, message, requests(found), ierror)
    end do
    call MPI_Waitall(senders, requests, MPI_STATUSES_IGNORE, ierror)
    do s = 1, senders
      call expect(values(s) == first_value(s, 2, 0), 'imrecv: the value of sender ' // str(s))
    end do
    call MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, flag, MPI_STATUS_IGNORE, ierror)
    call expect(.not. flag, 'improbe: none left')
    call conf_print('improbe: ' // str(found) // ' message(s), none left')
    deallocate (in)
  end if
  call conf_check('mprobe')
  call conf_finish()

contains

  integer function first_value(source, tag, serial)
    integer, intent(in) :: source, tag, serial
    first_value = 10000 * source + 100 * tag + serial
  end function first_value

end program mprobe
