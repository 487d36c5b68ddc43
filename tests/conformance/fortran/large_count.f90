! Twin of large_count.c through mpif.h: one message of more than 2**31 - 1 bytes (270,000,000
! double precision values, 2.16 GB), counted in elements of eight so that the count fits in a
! default integer while the byte count does not. The status must hold the program's counts
! however the shim frames the message.
!
! To halve the memory of the C program (4.4 GB), the sender holds one chunk of 1,080,000 values
! and sends it 250 times over with one datatype whose repeats all start at the chunk (an hvector
! of stride 0; a send buffer may overlap itself). The receiver holds the whole message, so it
! sees the same counts as the C program's and checks each value sampled against its place in
! the chunk. Ranks 0 and 1 only: about 2.2 GB in all.
program large_count
  use conf
  implicit none
  include 'mpif.h'
  integer(kind=8), parameter :: DOUBLES = 270000000_8
  integer, parameter :: PER_ELEMENT = 8
  integer, parameter :: CHUNK = 1080000
  integer, parameter :: ELEMENTS = int(DOUBLES / PER_ELEMENT)
  double precision, allocatable :: data(:)
  integer :: octet, chunk_type, repeated, status(MPI_STATUS_SIZE), ierror, allocated
  integer :: count, count_double, elems
  integer(kind=MPI_COUNT_KIND) :: elements_x, size_x
  integer(kind=8) :: i

  call conf_init()
  call MPI_Type_contiguous(PER_ELEMENT, MPI_DOUBLE_PRECISION, octet, ierror)
  call MPI_Type_commit(octet, ierror)

  allocated = 1
  if (conf_rank == 1) then
    allocate (data(0:CHUNK - 1), stat=allocated)
  else if (conf_rank == 0) then
    allocate (data(0:DOUBLES - 1), stat=allocated)
  end if
  if (conf_rank <= 1) call expect(allocated == 0, 'the buffer allocated')

  if (conf_rank == 1 .and. allocated == 0) then
    do i = 0, CHUNK - 1
      data(i) = expected(i)
    end do
    call MPI_Type_contiguous(CHUNK, MPI_DOUBLE_PRECISION, chunk_type, ierror)
    call MPI_Type_create_hvector(int(DOUBLES / CHUNK), 1, 0_MPI_ADDRESS_KIND, chunk_type, repeated, ierror)
    call MPI_Type_commit(repeated, ierror)
    call MPI_Send(data, 1, repeated, 0, 3, MPI_COMM_WORLD, ierror)
    call MPI_Type_free(repeated, ierror)
    call MPI_Type_free(chunk_type, ierror)
  else if (conf_rank == 0 .and. allocated == 0) then
    data(0) = -1
    data(DOUBLES - 1) = -1

    call MPI_Probe(1, 3, MPI_COMM_WORLD, status, ierror)
    call MPI_Get_count(status, octet, count, ierror)
    call MPI_Get_elements_x(status, octet, elements_x, ierror)
    call conf_print('probe: count=' // str(count) // ' elements_x=' // str(elements_x))
    call expect(count == ELEMENTS .and. elements_x == DOUBLES, 'probe: the whole count')

    call MPI_Recv(data, ELEMENTS, octet, 1, 3, MPI_COMM_WORLD, status, ierror)
    call MPI_Get_count(status, octet, count, ierror)
    call MPI_Get_count(status, MPI_DOUBLE_PRECISION, count_double, ierror)
    call MPI_Get_elements(status, octet, elems, ierror)
    call MPI_Get_elements_x(status, octet, elements_x, ierror)
    call MPI_Type_size_x(octet, size_x, ierror)
    call conf_print('recv: source=' // str(status(MPI_SOURCE)) // ' tag=' // str(status(MPI_TAG)) // &
                    ' count=' // str(count) // ' doubles=' // str(count_double) // ' elements=' // str(elems) // &
                    ' elements_x=' // str(elements_x) // ' bytes=' // str(count * size_x))
    call expect(count == ELEMENTS .and. elements_x == DOUBLES .and. elems == int(DOUBLES), 'recv: the whole count')
    ! A sparse sample with both ends: a shifted or truncated copy fails it.
    do i = 0, DOUBLES - 1, 999983
      if (data(i) /= expected(i)) call expect(.false., 'value ' // str(i))
    end do
    call expect(data(DOUBLES - 1) == expected(DOUBLES - 1), 'the last value')
  end if
  if (allocated == 0 .and. conf_rank <= 1) deallocate (data)
  call conf_check('large-count')
  call MPI_Type_free(octet, ierror)
  call conf_finish()

contains

  ! The value at place i of the message: the chunk's, repeated.
  double precision function expected(i)
    integer(kind=8), intent(in) :: i
    expected = dble(mod(i, int(CHUNK, 8))) + 0.25d0
  end function expected

end program large_count
