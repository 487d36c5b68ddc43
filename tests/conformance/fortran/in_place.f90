! Twin of in_place.c through `use mpi`: MPI_IN_PLACE in every collective that takes it, at roots
! where only the root may give it. Each result is checked against its definition; an odd process
! count makes the blocks uneven. Arguments MPI ignores are a dummy variable where C passes NULL.
program in_place
  use mpi
  use conf
  implicit none
  integer, parameter :: K = 3 ! integers per block
  integer :: size, rank, root, i, j, r, total, at, ierror, request, ignored
  integer, allocatable :: counts(:), displs(:), expected(:), byte_displs(:), types(:)
  integer, allocatable, asynchronous :: buffer(:)

  call conf_init()
  rank = conf_rank
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierror)
  root = size - 1
  allocate (buffer(0:size * size * K - 1), counts(0:size - 1), displs(0:size - 1), expected(0:size * size * K - 1))
  allocate (byte_displs(0:size - 1), types(0:size - 1))
  ignored = 0

  buffer(0:K - 1) = [(v(rank, i), i = 0, K - 1)]
  call MPI_Allreduce(MPI_IN_PLACE, buffer, K, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierror)
  do i = 0, K - 1
    call expect(buffer(i) == sum([(v(r, i), r = 0, size - 1)]), 'allreduce: the sum')
  end do
  call conf_check('in-place allreduce')

  buffer(0:K - 1) = [(v(rank, i), i = 0, K - 1)]
  if (rank == root) then
    call MPI_Reduce(MPI_IN_PLACE, buffer, K, MPI_INTEGER, MPI_MAX, root, MPI_COMM_WORLD, ierror)
  else
    call MPI_Reduce(buffer, ignored, K, MPI_INTEGER, MPI_MAX, root, MPI_COMM_WORLD, ierror)
  end if
  if (rank == root) then
    do i = 0, K - 1
      call expect(buffer(i) == v(size - 1, i), 'reduce: the maximum')
    end do
  end if
  call conf_check('in-place reduce')

  ! Every rank's own block in its place: the shape every gather-like result has.
  do r = 0, size - 1
    do i = 0, K - 1
      expected(r * K + i) = v(r, i)
    end do
  end do

  buffer(0:size * K - 1) = -1
  buffer(rank * K:rank * K + K - 1) = [(v(rank, i), i = 0, K - 1)]
  call MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buffer, K, MPI_INTEGER, MPI_COMM_WORLD, ierror)
  call expect(all(buffer(0:size * K - 1) == expected(0:size * K - 1)), 'allgather: every block')
  call conf_check('in-place allgather')

  ! Rank r contributes r+1 integers, packed one after the other.
  j = 0
  do r = 0, size - 1
    counts(r) = r + 1
    displs(r) = j
    j = j + r + 1
  end do
  total = j
  buffer(0:total - 1) = -1
  do i = 0, counts(rank) - 1
    buffer(displs(rank) + i) = v(rank, i)
  end do
  call MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buffer, counts, displs, MPI_INTEGER, MPI_COMM_WORLD, ierror)
  do r = 0, size - 1
    do i = 0, counts(r) - 1
      call expect(buffer(displs(r) + i) == v(r, i), 'allgatherv: block ' // str(r))
    end do
  end do
  call conf_check('in-place allgatherv')

  buffer(0:size * K - 1) = -1
  buffer(rank * K:rank * K + K - 1) = [(v(rank, i), i = 0, K - 1)]
  if (rank == root) then
    call MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buffer, K, MPI_INTEGER, root, MPI_COMM_WORLD, ierror)
    call expect(all(buffer(0:size * K - 1) == expected(0:size * K - 1)), 'gather: every block')
  else
    call MPI_Gather(buffer(rank * K), K, MPI_INTEGER, ignored, 0, MPI_DATATYPE_NULL, root, MPI_COMM_WORLD, ierror)
  end if
  call conf_check('in-place gather')

  buffer(0:size * size - 1) = -1
  do i = 0, counts(rank) - 1
    buffer(displs(rank) + i) = v(rank, i)
  end do
  if (rank == root) then
    call MPI_Gatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buffer, counts, displs, MPI_INTEGER, root, MPI_COMM_WORLD, &
                     ierror)
    do r = 0, size - 1
      do i = 0, counts(r) - 1
        call expect(buffer(displs(r) + i) == v(r, i), 'gatherv: block ' // str(r))
      end do
    end do
  else
    call MPI_Gatherv(buffer(displs(rank)), counts(rank), MPI_INTEGER, ignored, counts, displs, MPI_DATATYPE_NULL, root, &
                     MPI_COMM_WORLD, ierror)
  end if
  call conf_check('in-place gatherv')

  ! Scatter: the root keeps its own block where it is.
  if (rank == root) then
    buffer(0:size * K - 1) = expected(0:size * K - 1)
    call MPI_Scatter(buffer, K, MPI_INTEGER, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, root, MPI_COMM_WORLD, ierror)
    call expect(all(buffer(0:size * K - 1) == expected(0:size * K - 1)), 'scatter: the root''s blocks unchanged')
  else
    call MPI_Scatter(ignored, 0, MPI_DATATYPE_NULL, buffer, K, MPI_INTEGER, root, MPI_COMM_WORLD, ierror)
    call expect(all(buffer(0:K - 1) == [(v(rank, i), i = 0, K - 1)]), 'scatter: the rank''s block')
  end if
  call conf_check('in-place scatter')

  if (rank == root) then
    do r = 0, size - 1
      do i = 0, counts(r) - 1
        buffer(displs(r) + i) = v(r, i)
      end do
    end do
    call MPI_Scatterv(buffer, counts, displs, MPI_INTEGER, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, root, MPI_COMM_WORLD, &
                      ierror)
    do i = 0, counts(rank) - 1
      call expect(buffer(displs(rank) + i) == v(rank, i), 'scatterv: the root''s block unchanged')
    end do
  else
    buffer(0:size - 1) = -1
    call MPI_Scatterv(ignored, counts, displs, MPI_DATATYPE_NULL, buffer, counts(rank), MPI_INTEGER, root, &
                      MPI_COMM_WORLD, ierror)
    do i = 0, counts(rank) - 1
      call expect(buffer(i) == v(rank, i), 'scatterv: the rank''s block')
    end do
    if (counts(rank) /= size) call expect(buffer(counts(rank)) == -1, 'scatterv: nothing past the block')
  end if
  call conf_check('in-place scatterv')

  ! All-to-all: block j of rank r holds 1000 * r + 10 * j + i; afterwards block j holds what
  ! rank j had for this rank.
  do j = 0, size - 1
    do i = 0, K - 1
      buffer(j * K + i) = 1000 * rank + 10 * j + i
    end do
  end do
  call MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buffer, K, MPI_INTEGER, MPI_COMM_WORLD, ierror)
  do j = 0, size - 1
    do i = 0, K - 1
      call expect(buffer(j * K + i) == 1000 * j + 10 * rank + i, 'alltoall: block ' // str(j))
    end do
  end do
  call conf_check('in-place alltoall')

  ! In place, alltoallv exchanges blocks of equal size both ways: rank r and rank j swap
  ! min(r, j) + 1 integers. Blocks are spaced size integers apart.
  call fill_pairwise()
  call MPI_Alltoallv(MPI_IN_PLACE, counts, displs, MPI_DATATYPE_NULL, buffer, counts, displs, MPI_INTEGER, &
                     MPI_COMM_WORLD, ierror)
  call expect_pairwise('alltoallv')
  call conf_check('in-place alltoallv')

  call fill_pairwise()
  do j = 0, size - 1
    byte_displs(j) = j * size * (storage_size(buffer) / 8)
    types(j) = MPI_INTEGER
  end do
  call MPI_Alltoallw(MPI_IN_PLACE, counts, byte_displs, types, buffer, counts, byte_displs, types, MPI_COMM_WORLD, &
                     ierror)
  call expect_pairwise('alltoallw')
  call conf_check('in-place alltoallw')

  ! Reduce-scatter: rank r gets the sums of block r, r + 1 integers long.
  j = 0
  do r = 0, size - 1
    counts(r) = r + 1
    displs(r) = j
    j = j + r + 1
  end do
  buffer(0:j - 1) = [(rank * i + 1, i = 0, j - 1)]
  call MPI_Reduce_scatter(MPI_IN_PLACE, buffer, counts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierror)
  do i = 0, counts(rank) - 1
    at = displs(rank) + i
    call expect(buffer(i) == sum([(r * at + 1, r = 0, size - 1)]), 'reduce_scatter: the sums')
  end do
  call conf_check('in-place reduce_scatter')

  buffer(0:size * K - 1) = [(rank * i + 1, i = 0, size * K - 1)]
  call MPI_Reduce_scatter_block(MPI_IN_PLACE, buffer, K, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierror)
  do i = 0, K - 1
    at = rank * K + i
    call expect(buffer(i) == sum([(r * at + 1, r = 0, size - 1)]), 'reduce_scatter_block: the sums')
  end do
  call conf_check('in-place reduce_scatter_block')

  buffer(0:K - 1) = [(v(rank, i), i = 0, K - 1)]
  call MPI_Scan(MPI_IN_PLACE, buffer, K, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierror)
  do i = 0, K - 1
    call expect(buffer(i) == sum([(v(r, i), r = 0, rank)]), 'scan: the partial sums')
  end do
  call conf_check('in-place scan')

  buffer(0:K - 1) = [(v(rank, i), i = 0, K - 1)]
  call MPI_Exscan(MPI_IN_PLACE, buffer, K, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierror)
  ! Rank 0's buffer is undefined after an exscan.
  if (rank > 0) then
    do i = 0, K - 1
      call expect(buffer(i) == sum([(v(r, i), r = 0, rank - 1)]), 'exscan: the partial sums before')
    end do
  end if
  call conf_check('in-place exscan')

  buffer(0:K - 1) = [(v(rank, i), i = 0, K - 1)]
  call MPI_Iallreduce(MPI_IN_PLACE, buffer, K, MPI_INTEGER, MPI_MIN, MPI_COMM_WORLD, request, ierror)
  call MPI_Wait(request, MPI_STATUS_IGNORE, ierror)
  call expect(all(buffer(0:K - 1) == [(v(0, i), i = 0, K - 1)]), 'iallreduce: the minimum')
  call conf_check('in-place iallreduce')

  deallocate (buffer, counts, displs, expected, byte_displs, types)
  call conf_finish()

contains

  integer function v(r, i)
    integer, intent(in) :: r, i
    v = 100 * r + i + 1
  end function v

  subroutine fill_pairwise()
    integer :: jj, ii
    do jj = 0, size - 1
      counts(jj) = min(rank, jj) + 1
      displs(jj) = jj * size
      do ii = 0, size - 1
        buffer(jj * size + ii) = merge(1000 * rank + 10 * jj + ii, -1, ii < counts(jj))
      end do
    end do
  end subroutine fill_pairwise

  subroutine expect_pairwise(what)
    character(*), intent(in) :: what
    integer :: jj, ii
    do jj = 0, size - 1
      do ii = 0, size - 1
        call expect(buffer(jj * size + ii) == merge(1000 * jj + 10 * rank + ii, -1, ii < counts(jj)), &
                    what // ': block ' // str(jj))
      end do
    end do
  end subroutine expect_pairwise

end program in_place
