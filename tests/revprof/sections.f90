! Rank 0 sends rank 1 two non-contiguous array sections of different sizes through `use
! mpi_f08`. MPICH's binding builds a datatype for each and frees it unseen by the shim, so the
! second may get the first's handle: each send must still be priced at its own size (4 and 16
! doubles, test_reverse_profiler.cpp). Prints the sum of what rank 1 received.
program sections
  use mpi_f08
  implicit none
  integer :: rank
  double precision :: a(10, 4), b(10, 16), received(16)
  type(MPI_Status) :: status
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  a = 1
  b = 2
  received = 0
  if (rank == 0) then
    call MPI_Send(a(1, :), 4, MPI_DOUBLE_PRECISION, 1, 0, MPI_COMM_WORLD)
    call MPI_Send(b(1, :), 16, MPI_DOUBLE_PRECISION, 1, 1, MPI_COMM_WORLD)
  else if (rank == 1) then
    call MPI_Recv(received, 4, MPI_DOUBLE_PRECISION, 0, 0, MPI_COMM_WORLD, status)
    call MPI_Recv(received, 16, MPI_DOUBLE_PRECISION, 0, 1, MPI_COMM_WORLD, status)
    print '(a, f0.1)', 'received sum ', sum(received)
  end if
  call MPI_Finalize()
end program sections
