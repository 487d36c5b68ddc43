! Twin of comms.c through `use mpi`: communicator and group creation at odd sizes: split with
! colors and MPI_UNDEFINED, create, create_group, dup; messages on each new communicator carry
! its own ranks. A communicator is freed with a receive still pending on it, which must still
! complete. Beyond the C program, and inside its "dup" check, the duplicate is named with
! MPI_Comm_set_name and the names of it and of MPI_COMM_WORLD are read back as Fortran strings.
program comms
  use mpi
  use conf
  implicit none
  integer :: size, rank, i, in, out, sub_rank, sub_size, count, ierror, n, total, length, request, color
  integer :: split, reversed, created, grouped, dup, doomed, world_group, odd_group
  integer :: status(MPI_STATUS_SIZE), odd(64)
  integer, asynchronous :: pending
  character(MPI_MAX_OBJECT_NAME) :: name

  call conf_init()
  rank = conf_rank
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierror)

  ! Colors 0 and 1 alternate; the last rank opts out.
  color = merge(MPI_UNDEFINED, mod(rank, 2), rank == size - 1)
  call MPI_Comm_split(MPI_COMM_WORLD, color, rank, split, ierror)
  if (rank == size - 1) then
    call expect(split == MPI_COMM_NULL, 'split: MPI_COMM_NULL for MPI_UNDEFINED')
  else
    call MPI_Comm_rank(split, sub_rank, ierror)
    call MPI_Comm_size(split, sub_size, ierror)
    call expect(sub_rank == rank / 2 .and. sub_size == (size - 1 + 1 - mod(rank, 2)) / 2, 'split: rank and size')
    ! A ring on the new communicator: sources are its ranks, not the world's.
    out = rank
    call MPI_Sendrecv(out, 1, MPI_INTEGER, mod(sub_rank + 1, sub_size), 1, in, 1, MPI_INTEGER, MPI_ANY_SOURCE, 1, split, &
                      status, ierror)
    call expect(status(MPI_SOURCE) == mod(sub_rank + sub_size - 1, sub_size), 'split: the source in its ranks')
    call expect(in == 2 * mod(sub_rank + sub_size - 1, sub_size) + mod(rank, 2), 'split: the data')
    call MPI_Comm_free(split, ierror)
  end if
  call conf_check('split-undefined')

  ! Keys in reverse: new rank order is the world's reversed.
  call MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, reversed, ierror)
  call MPI_Comm_rank(reversed, sub_rank, ierror)
  call expect(sub_rank == size - 1 - rank, 'reversed: the rank')
  if (sub_rank == 0) then
    do i = 1, size - 1
      call MPI_Recv(in, 1, MPI_INTEGER, MPI_ANY_SOURCE, 2, reversed, status, ierror)
      call expect(in == size - 1 - status(MPI_SOURCE), 'reversed: the source in its ranks')
    end do
  else
    call MPI_Send(rank, 1, MPI_INTEGER, 0, 2, reversed, ierror)
  end if
  call MPI_Comm_free(reversed, ierror)
  call conf_check('split-reversed')

  ! The odd world ranks, by MPI_Comm_create (everyone calls) and MPI_Comm_create_group (only
  ! members call).
  call MPI_Comm_group(MPI_COMM_WORLD, world_group, ierror)
  n = 0
  do i = 1, size - 1, 2
    if (n == 64) exit
    n = n + 1
    odd(n) = i
  end do
  call MPI_Group_incl(world_group, n, odd, odd_group, ierror)
  call MPI_Comm_create(MPI_COMM_WORLD, odd_group, created, ierror)
  call expect((created == MPI_COMM_NULL) .eqv. (mod(rank, 2) == 0), 'create: MPI_COMM_NULL outside the group')
  grouped = MPI_COMM_NULL
  if (mod(rank, 2) == 1) call MPI_Comm_create_group(MPI_COMM_WORLD, odd_group, 5, grouped, ierror)
  if (mod(rank, 2) == 1) then
    call MPI_Comm_rank(grouped, sub_rank, ierror)
    call expect(sub_rank == rank / 2, 'create_group: the rank')
    call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, created, ierror)
    call MPI_Allreduce(MPI_IN_PLACE, total, 1, MPI_INTEGER, MPI_MAX, grouped, ierror)
    call expect(total == (size / 2) * (size / 2), 'create and create_group: the sum of the odd ranks')
    call MPI_Comm_free(created, ierror)
    call MPI_Comm_free(grouped, ierror)
  end if
  call MPI_Group_free(odd_group, ierror)
  call MPI_Group_free(world_group, ierror)
  call conf_check('create-and-create-group')

  ! A duplicate matches nothing sent on the original.
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierror)
  if (rank == 0) then
    out = 1
    call MPI_Send(out, 1, MPI_INTEGER, 1, 3, MPI_COMM_WORLD, ierror)
    out = 2
    call MPI_Send(out, 1, MPI_INTEGER, 1, 3, dup, ierror)
  else if (rank == 1) then
    call MPI_Recv(in, 1, MPI_INTEGER, 0, 3, dup, MPI_STATUS_IGNORE, ierror)
    call expect(in == 2, 'dup: the message sent on it')
    call MPI_Recv(in, 1, MPI_INTEGER, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierror)
    call expect(in == 1, 'dup: the message sent on the original')
  end if
  call MPI_Comm_set_name(dup, 'conformance dup', ierror)
  name = repeat('?', len(name))
  call MPI_Comm_get_name(dup, name, length, ierror)
  call expect(length == 15 .and. name == 'conformance dup', 'dup: its name, blank-padded')
  call MPI_Comm_get_name(MPI_COMM_WORLD, name, length, ierror)
  call expect(name(1:length) == 'MPI_COMM_WORLD', 'the name of MPI_COMM_WORLD')
  call MPI_Comm_free(dup, ierror)
  call conf_check('dup')

  ! Rank 1 frees a communicator with its receive still posted; rank 0 sends on it only then.
  call MPI_Comm_dup(MPI_COMM_WORLD, doomed, ierror)
  if (rank == 1) then
    pending = -1
    call MPI_Irecv(pending, 1, MPI_INTEGER, 0, 4, doomed, request, ierror)
    call MPI_Comm_free(doomed, ierror)
    call expect(doomed == MPI_COMM_NULL, 'free: MPI_COMM_NULL')
    out = 0
    call MPI_Send(out, 1, MPI_INTEGER, 0, 5, MPI_COMM_WORLD, ierror)
    call reset_status(status)
    call MPI_Wait(request, status, ierror)
    call MPI_Get_count(status, MPI_INTEGER, count, ierror)
    call expect(pending == 44 .and. status(MPI_SOURCE) == 0 .and. status(MPI_TAG) == 4 .and. count == 1, &
                'the receive pending at free completes')
  else if (rank == 0) then
    call MPI_Recv(in, 1, MPI_INTEGER, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierror)
    out = 44
    call MPI_Send(out, 1, MPI_INTEGER, 1, 4, doomed, ierror)
    call MPI_Comm_free(doomed, ierror)
  else
    call MPI_Comm_free(doomed, ierror)
  end if
  call conf_check('free-with-pending-receive')
  call conf_finish()
end program comms
