! Twin of counts.c through `use mpi_f08`: MPI_Get_count, MPI_Get_elements and MPI_Get_elements_x
! with derived datatypes, for whole and partial elements, seen through receive and probe statuses.
! The record is an interoperable derived type whose displacements come from MPI_Get_address.
! Beyond the C program, and inside its "counts" check, a message of absolute addresses travels
! from MPI_BOTTOM to MPI_BOTTOM (a struct type on each side).
program counts
  use, intrinsic :: iso_c_binding, only: c_int, c_double, c_char
  use mpi_f08
  use conf_f08
  implicit none
  type, bind(C) :: record
    integer(c_int) :: id
    real(c_double) :: value
    character(kind=c_char) :: code(3)
  end type record
  type(MPI_Datatype) :: vector, record_t, partial, sent_t, received_t
  type(MPI_Status) :: status
  type(MPI_Request) :: request
  integer :: i, count
  integer, asynchronous :: ints(0:63)
  type(record), target :: records(0:3)
  ! What the MPI_BOTTOM message carries, and where it lands.
  real(c_double), target, asynchronous :: bottom_value
  integer, target, asynchronous :: bottom_ints(0:2)

  call conf_init()
  ! Three blocks of two integers, stride four: six integers per element.
  call MPI_Type_vector(3, 2, 4, MPI_INTEGER, vector)
  call MPI_Type_commit(vector)
  call record_types(record_t, partial)

  if (conf_rank == 1) then
    ints = [(i, i = 0, 63)]
    do i = 0, 3
      records(i)%id = i
      records(i)%value = i + 0.5d0
      records(i)%code = [achar(iachar('a') + i), 'b', 'c']
    end do
    call MPI_Send(ints, 2, vector, 0, 1, MPI_COMM_WORLD)
    call MPI_Send(ints, 9, MPI_INTEGER, 0, 2, MPI_COMM_WORLD)
    call MPI_Send(records, 3, record_t, 0, 3, MPI_COMM_WORLD)
    call MPI_Send(records, 2, record_t, 0, 4, MPI_COMM_WORLD)
    call MPI_Send(records, 1, partial, 0, 5, MPI_COMM_WORLD)
    call MPI_Send(ints, 0, vector, 0, 6, MPI_COMM_WORLD)
    call MPI_Send(ints, 13, MPI_BYTE, 0, 7, MPI_COMM_WORLD)
    call MPI_Send(ints, 5, MPI_INTEGER, 0, 8, MPI_COMM_WORLD)
    bottom_value = 2.75d0
    bottom_ints = [7, 8, 9]
    sent_t = absolute_type(bottom_value, bottom_ints)
    call MPI_Send(MPI_BOTTOM, 1, sent_t, 0, 9, MPI_COMM_WORLD)
    call MPI_Type_free(sent_t)
  else if (conf_rank == 0) then
    ints = -1
    call MPI_Probe(1, 1, MPI_COMM_WORLD, status)
    call print_counts('vector probe', status, vector)
    call MPI_Recv(ints, 4, vector, 1, 1, MPI_COMM_WORLD, status)
    call print_counts('vector', status, vector)
    ! The second element starts at the first one's extent, ten integers in.
    call expect(ints(0) == 0 .and. ints(1) == 1 .and. ints(4) == 4 .and. ints(9) == 9 .and. ints(10) == 10 .and. &
                ints(19) == 19, 'vector: the elements in place')
    call expect(ints(2) == -1 .and. ints(12) == -1 .and. ints(20) == -1, 'vector: the gaps untouched')

    call MPI_Probe(1, 2, MPI_COMM_WORLD, status)
    call print_counts('partial vector probe', status, vector)
    call MPI_Recv(ints, 4, vector, 1, 2, MPI_COMM_WORLD, status)
    call print_counts('partial vector', status, vector)

    call MPI_Recv(records, 4, record_t, 1, 3, MPI_COMM_WORLD, status)
    call print_counts('struct', status, record_t)
    call expect(records(2)%id == 2 .and. records(2)%value == 2.5d0 .and. records(2)%code(1) == 'c', &
                'struct: the third record')
    call MPI_Recv(records, 4, record_t, 1, 4, MPI_COMM_WORLD, status)
    call print_counts('struct short', status, record_t)
    call MPI_Probe(1, 5, MPI_COMM_WORLD, status)
    call print_counts('partial struct probe', status, record_t)
    call MPI_Recv(records, 4, record_t, 1, 5, MPI_COMM_WORLD, status)
    call print_counts('partial struct', status, record_t)
    call expect(records(1)%id == 1 .and. records(1)%value == 1.5d0, 'partial struct: the half record')

    call MPI_Recv(ints, 4, vector, 1, 6, MPI_COMM_WORLD, status)
    call print_counts('empty', status, vector)
    call MPI_Recv(ints, 64, MPI_BYTE, 1, 7, MPI_COMM_WORLD, status)
    call print_counts('bytes', status, MPI_BYTE)
    call MPI_Irecv(ints, 3, vector, 1, 8, MPI_COMM_WORLD, request)
    call MPI_Wait(request, status)
    call print_counts('partial vector irecv', status, vector)

    bottom_value = -1
    bottom_ints = -1
    received_t = absolute_type(bottom_value, bottom_ints)
    call MPI_Recv(MPI_BOTTOM, 1, received_t, 1, 9, MPI_COMM_WORLD, status)
    call MPI_F_sync_reg(bottom_value)
    call MPI_F_sync_reg(bottom_ints)
    call MPI_Get_count(status, received_t, count)
    call expect(count == 1 .and. status%MPI_TAG == 9, 'MPI_BOTTOM: one element')
    call expect(bottom_value == 2.75d0 .and. all(bottom_ints == [7, 8, 9]), 'MPI_BOTTOM: the data at its addresses')
    call MPI_Type_free(received_t)
  end if
  call conf_check('counts')

  call MPI_Type_free(vector)
  call MPI_Type_free(record_t)
  call MPI_Type_free(partial)
  call conf_finish()

contains

  subroutine print_counts(what, status, datatype)
    character(*), intent(in) :: what
    type(MPI_Status), intent(in) :: status
    type(MPI_Datatype), intent(in) :: datatype
    integer :: count, elements
    integer(MPI_COUNT_KIND) :: elements_x
    call MPI_Get_count(status, datatype, count)
    call MPI_Get_elements(status, datatype, elements)
    call MPI_Get_elements_x(status, datatype, elements_x)
    if (count == MPI_UNDEFINED) then
      call conf_print(what // ': count=undefined elements=' // str(elements) // ' elements_x=' // str(elements_x))
    else
      call conf_print(what // ': count=' // str(count) // ' elements=' // str(elements) // ' elements_x=' // &
                      str(elements_x))
    end if
  end subroutine print_counts

  ! The record's type, resized to the record's extent, and one whole record followed by the id
  ! and value of a second: a partial record on the wire. Displacements are measured with
  ! MPI_Get_address, as Fortran has no offsetof.
  subroutine record_types(whole, record_and_a_half)
    type(MPI_Datatype), intent(out) :: whole, record_and_a_half
    type(record), target :: sample(0:1)
    integer(MPI_ADDRESS_KIND) :: base, at(5)
    type(MPI_Datatype) :: packed
    call MPI_Get_address(sample(0), base)
    call MPI_Get_address(sample(0)%id, at(1))
    call MPI_Get_address(sample(0)%value, at(2))
    call MPI_Get_address(sample(0)%code, at(3))
    call MPI_Get_address(sample(1)%id, at(4))
    call MPI_Get_address(sample(1)%value, at(5))
    at = at - base
    call MPI_Type_create_struct(3, [1, 1, 3], at(1:3), [MPI_INTEGER, MPI_DOUBLE_PRECISION, MPI_CHARACTER], packed)
    call MPI_Type_create_resized(packed, 0_MPI_ADDRESS_KIND, at(4), whole)
    call MPI_Type_free(packed)
    call MPI_Type_commit(whole)
    call MPI_Type_create_struct(5, [1, 1, 3, 1, 1], at, &
                                [MPI_INTEGER, MPI_DOUBLE_PRECISION, MPI_CHARACTER, MPI_INTEGER, MPI_DOUBLE_PRECISION], &
                                record_and_a_half)
    call MPI_Type_commit(record_and_a_half)
  end subroutine record_types

  ! A double and three integers at their absolute addresses, for MPI_BOTTOM.
  function absolute_type(value, three) result(datatype)
    real(c_double), target, asynchronous :: value
    integer, target, asynchronous :: three(0:2)
    type(MPI_Datatype) :: datatype
    integer(MPI_ADDRESS_KIND) :: at(2)
    call MPI_Get_address(value, at(1))
    call MPI_Get_address(three, at(2))
    call MPI_Type_create_struct(2, [1, 3], at, [MPI_DOUBLE_PRECISION, MPI_INTEGER], datatype)
    call MPI_Type_commit(datatype)
  end function absolute_type

end program counts
