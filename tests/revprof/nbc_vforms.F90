! The v- and w-forms of the non-blocking collectives and the newer communicator constructors
! from Fortran, through `use mpi` or, built with WITH_F08, `use mpi_f08`: the shim must price
! them as it prices a C program's (test_reverse_profiler.cpp). Prints "ok nbc-vforms on rank R"
! when every result is the one MPI defines.
program nbc_vforms
#ifdef WITH_F08
  use mpi_f08
#else
  use mpi
#endif
  implicit none
  integer, parameter :: most = 16
#ifdef WITH_F08
  type(MPI_Request) :: request
  type(MPI_Comm) :: dup, grouped
  type(MPI_Group) :: world
  type(MPI_Datatype) :: types(most)
#else
  integer :: request, dup, grouped, world
  integer :: types(most)
#endif
  integer :: ierror, rank, size, i, n
  integer :: counts(most), displs(most), mine(most), all(most * most), got(most), reduced(most)
  integer :: ones(most), bytes(most), out(most), in(most), values(most * most)
  logical :: ok

  call MPI_Init(ierror)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierror)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierror)
  ok = size <= most
  ! Rank r contributes r + 1 integers of value 100 + r.
  counts(1:size) = [(i, i = 1, size)]
  displs(1:size) = [(i * (i - 1) / 2, i = 1, size)]
  mine = 100 + rank
  call MPI_Igatherv(mine, rank + 1, MPI_INTEGER, all, counts, displs, MPI_INTEGER, 0, MPI_COMM_WORLD, request, ierror)
  call MPI_Wait(request, MPI_STATUS_IGNORE, ierror)
  if (rank == 0) ok = ok .and. all(1) == 100 .and. all(size * (size + 1) / 2) == 100 + size - 1
  call MPI_Iscatterv(all, counts, displs, MPI_INTEGER, got, rank + 1, MPI_INTEGER, 0, MPI_COMM_WORLD, request, ierror)
  call MPI_Wait(request, MPI_STATUS_IGNORE, ierror)
  ok = ok .and. got(1) == 100 + rank
  values = rank + 1
  call MPI_Ireduce_scatter(values, reduced, counts, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, request, ierror)
  call MPI_Wait(request, MPI_STATUS_IGNORE, ierror)
  ok = ok .and. reduced(1) == size * (size + 1) / 2
  ones = 1
  bytes(1:size) = [(4 * (i - 1), i = 1, size)]
  types = MPI_INTEGER
  out(1:size) = [(10 * rank + i - 1, i = 1, size)]
  call MPI_Ialltoallw(out, ones, bytes, types, in, ones, bytes, types, MPI_COMM_WORLD, request, ierror)
  call MPI_Wait(request, MPI_STATUS_IGNORE, ierror)
  ok = ok .and. in(size) == 10 * (size - 1) + rank
  call MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, dup, ierror)
  call MPI_Allreduce(1, n, 1, MPI_INTEGER, MPI_SUM, dup, ierror)
  ok = ok .and. n == size
  call MPI_Comm_group(MPI_COMM_WORLD, world, ierror)
  call MPI_Comm_create_group(MPI_COMM_WORLD, world, 7, grouped, ierror)
  call MPI_Allreduce(1, n, 1, MPI_INTEGER, MPI_SUM, grouped, ierror)
  ok = ok .and. n == size
  call MPI_Group_free(world, ierror)
  call MPI_Comm_free(grouped, ierror)
  call MPI_Comm_free(dup, ierror)
  if (ok) then
    print '(a, i0)', 'ok nbc-vforms on rank ', rank
  else
    print '(a, i0)', 'FAILED nbc-vforms on rank ', rank
  end if
  call MPI_Finalize(ierror)
end program nbc_vforms
