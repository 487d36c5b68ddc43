! One-sided communication from Fortran, through `use mpi` or, built with WITH_F08, `use mpi_f08`:
! a window made with MPI_Win_create and one with MPI_Win_allocate, each a fence epoch of puts
! around a ring, then freed. The shim must follow the windows as it follows a C program's
! (test_reverse_profiler.cpp). Prints "ok one-sided on rank R" when each rank holds what its
! left neighbour put.
program one_sided
#ifdef WITH_F08
  use mpi_f08
#else
  use mpi
#endif
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  implicit none
#ifdef WITH_F08
  type(MPI_Win) :: win, allocated
#else
  integer :: win, allocated
#endif
  integer :: ierror, rank, size, next
  ! MPI writes the windows behind the compiler's back: VOLATILE keeps it from reading a stale
  ! copy (MPI_F_sync_reg, the standard's other way, crashes under MPICH 4.0's `use mpi`).
  integer, volatile :: exposed(4)
  integer :: mine(4)
  integer(kind=MPI_ADDRESS_KIND) :: bytes, zero
  type(c_ptr) :: base
  integer, pointer, volatile :: window_memory(:)

  call MPI_Init(ierror)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierror)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierror)
  next = mod(rank + 1, size)
  exposed = -1
  mine = rank
  bytes = 16
  zero = 0
  call MPI_Win_create(exposed, bytes, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierror)
  call MPI_Win_fence(0, win, ierror)
  call MPI_Put(mine, 4, MPI_INTEGER, next, zero, 4, MPI_INTEGER, win, ierror)
  call MPI_Win_fence(0, win, ierror)
  call MPI_Win_free(win, ierror)

  call MPI_Win_allocate(bytes, 4, MPI_INFO_NULL, MPI_COMM_WORLD, base, allocated, ierror)
  call c_f_pointer(base, window_memory, [4])
  window_memory = -1
  call MPI_Win_fence(0, allocated, ierror)
  call MPI_Put(mine, 4, MPI_INTEGER, next, zero, 4, MPI_INTEGER, allocated, ierror)
  call MPI_Win_fence(0, allocated, ierror)
  if (all(exposed == mod(rank + size - 1, size)) .and. all(window_memory == mod(rank + size - 1, size))) then
    print '(a, i0)', 'ok one-sided on rank ', rank
  end if
  call MPI_Win_free(allocated, ierror)
  call MPI_Finalize(ierror)
end program one_sided
