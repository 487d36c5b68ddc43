! Each rank writes a block of a file and reads it back with MPI-IO from Fortran, through `use
! mpi` or, built with WITH_F08, `use mpi_f08`: calls the shim does not price, which its report
! must name as it names a C program's (test_reverse_profiler.cpp). The file is the first argument;
! its name comes with trailing blanks, as a Fortran string does. Prints "ok file-io" when every
! block read back is the one written.
program file_io
#ifdef WITH_F08
  use mpi_f08
#else
  use mpi
#endif
  implicit none
  integer, parameter :: count = 4
#ifdef WITH_F08
  type(MPI_File) :: fh
  type(MPI_Status) :: status
#else
  integer :: fh
  integer :: status(MPI_STATUS_SIZE)
#endif
  integer :: ierror, rank, i
  integer :: written(count), read_at(count), read_all(count)
  integer(kind=MPI_OFFSET_KIND) :: offset
  character(len=256) :: path
  logical :: ok

  call MPI_Init(ierror)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierror)
  call get_command_argument(1, path)
  written = [(100 * rank + i, i = 1, count)]
  read_at = -1
  read_all = -1
  offset = int(rank, MPI_OFFSET_KIND) * count * 4
  call MPI_File_open(MPI_COMM_WORLD, path, ior(MPI_MODE_CREATE, MPI_MODE_RDWR), MPI_INFO_NULL, fh, ierror)
  ok = ierror == MPI_SUCCESS
  call MPI_File_write_at(fh, offset, written, count, MPI_INTEGER, status, ierror)
  ok = ok .and. ierror == MPI_SUCCESS
  call MPI_File_read_at(fh, offset, read_at, count, MPI_INTEGER, status, ierror)
  ok = ok .and. ierror == MPI_SUCCESS
  ! The collective calls, each rank at its own block again.
  call MPI_File_seek(fh, offset, MPI_SEEK_SET, ierror)
  call MPI_File_write_all(fh, written, count, MPI_INTEGER, status, ierror)
  ok = ok .and. ierror == MPI_SUCCESS
  call MPI_File_seek(fh, offset, MPI_SEEK_SET, ierror)
  call MPI_File_read_all(fh, read_all, count, MPI_INTEGER, status, ierror)
  ok = ok .and. ierror == MPI_SUCCESS
  call MPI_File_close(fh, ierror)
  ok = ok .and. all(read_at == written) .and. all(read_all == written)
  if (ok) then
    print '(a, i0)', 'ok file-io on rank ', rank
  else
    print '(a, i0)', 'FAILED file-io on rank ', rank
  end if
  call MPI_Finalize(ierror)
  if (.not. ok) stop 1
end program file_io
