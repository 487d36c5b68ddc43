! Twin of intercomm.c through `use mpi_f08`: even and odd world ranks form two groups (of unequal
! size at an odd process count) joined by MPI_Intercomm_create. Point-to-point across (status
! sources are remote ranks), MPI_Allreduce and MPI_Bcast across (MPI_ROOT / MPI_PROC_NULL), then
! MPI_Intercomm_merge, whose ranks are checked by a logical `high`.
program intercomm
  use mpi_f08
  use conf_f08
  implicit none
  integer :: size, color, local_rank, local_size, remote_size, i, value, sum, in, seen, expected
  integer :: merged_rank, merged_size, root
  logical :: is_inter
  type(MPI_Comm) :: local, inter, merged
  type(MPI_Status) :: status

  call conf_init()
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  color = mod(conf_rank, 2)
  call MPI_Comm_split(MPI_COMM_WORLD, color, conf_rank, local)
  call MPI_Comm_rank(local, local_rank)
  call MPI_Comm_size(local, local_size)
  ! Each group's leader is its lowest world rank: 0 for the evens, 1 for the odds.
  call MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - color, 77, inter)
  call MPI_Comm_test_inter(inter, is_inter)
  call MPI_Comm_remote_size(inter, remote_size)
  call expect(is_inter .and. local_size == (size + 1 - color) / 2 .and. remote_size == size - local_size, &
              'an intercommunicator of the two groups')
  call conf_print('evens ' // str(local_size) // ', odds ' // str(remote_size))
  call conf_check('intercomm-create')

  ! Every rank sends its local rank to remote rank 0; remote rank 0 of each side receives from
  ! any source and replies to each sender.
  value = 100 * color + local_rank
  call MPI_Send(value, 1, MPI_INTEGER, 0, 1, inter)
  if (local_rank == 0) then
    seen = 0
    do i = 1, remote_size
      call MPI_Recv(in, 1, MPI_INTEGER, MPI_ANY_SOURCE, 1, inter, status)
      call expect(in == 100 * (1 - color) + status%MPI_SOURCE .and. status%MPI_TAG == 1, 'a remote rank and its value')
      seen = ior(seen, ishft(1, status%MPI_SOURCE))
      in = in + 1000
      call MPI_Send(in, 1, MPI_INTEGER, status%MPI_SOURCE, 2, inter)
    end do
    call expect(seen == ishft(1, remote_size) - 1, 'every remote rank seen')
  end if
  call MPI_Recv(in, 1, MPI_INTEGER, 0, 2, inter, status)
  call expect(in == value + 1000 .and. status%MPI_SOURCE == 0, 'the reply of remote rank 0')
  call conf_check('intercomm-p2p')

  ! An allreduce across gives each side the sum over the other.
  value = merge(1000 + local_rank, local_rank + 1, color == 1)
  call MPI_Allreduce(value, sum, 1, MPI_INTEGER, MPI_SUM, inter)
  expected = 0
  do i = 0, remote_size - 1
    expected = expected + merge(i + 1, 1000 + i, color == 1)
  end do
  call expect(sum == expected, 'allreduce: the sum over the other side')
  ! The evens' rank 0 broadcasts to the odds.
  if (color == 0) then
    value = 4242
    root = merge(MPI_ROOT, MPI_PROC_NULL, local_rank == 0)
    call MPI_Bcast(value, 1, MPI_INTEGER, root, inter)
  else
    value = -1
    call MPI_Bcast(value, 1, MPI_INTEGER, 0, inter)
    call expect(value == 4242, 'bcast: the evens'' value')
  end if
  call MPI_Barrier(inter)
  call conf_check('intercomm-collectives')

  ! Merged with the odds first: their ranks come before the evens'.
  call MPI_Intercomm_merge(inter, color == 0, merged)
  call MPI_Comm_rank(merged, merged_rank)
  call MPI_Comm_size(merged, merged_size)
  call expect(merged_size == size, 'merged: every rank')
  call expect(merged_rank == merge(local_rank, remote_size + local_rank, color == 1), 'merged: the odds first')
  call MPI_Allreduce(conf_rank, sum, 1, MPI_INTEGER, MPI_SUM, merged)
  call expect(sum == size * (size - 1) / 2, 'merged: allreduce over all')
  call conf_check('intercomm-merge')

  call MPI_Comm_free(merged)
  call MPI_Comm_free(inter)
  call MPI_Comm_free(local)
  call conf_finish()
end program intercomm
