! Twin of errhandler.c through `use mpi_f08`: errors returned rather than fatal. With
! MPI_ERRORS_RETURN on a communicator, erroneous calls return in `ierror` a code whose class is
! the standard's, the program carries on, and a truncated receive reports MPI_ERR_TRUNCATE in its
! code or, among several, in its status. Beyond the C program, and inside its "errors-return"
! check, the first error's text comes back through MPI_Error_string as a Fortran string.
!
! Open MPI 4.1's Fortran MPI_Wait and MPI_Waitall write neither statuses nor requests back when
! they fail, so after the truncated MPI_Wait the status is the one the program set, and after the
! failed MPI_Waitall the per-request errors cannot be seen: the program says so in a line of its
! own, and the requests, all completed by Open MPI, are not touched again. Where the statuses are
! written (MPICH), it checks them as the C program does.
program errhandler
  use mpi_f08
  use conf_f08
  implicit none
  integer :: size, data(0:7), code, i, count, length, right, left, in
  integer, asynchronous :: small(0:3), other(0:7)
  character(MPI_MAX_ERROR_STRING) :: text
  type(MPI_Comm) :: comm
  type(MPI_Status) :: status, statuses(2)
  type(MPI_Request) :: request, requests(2)
  type(MPI_Errhandler) :: handler

  call conf_init()
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  data = 0
  call MPI_Comm_dup(MPI_COMM_WORLD, comm)
  call MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN)
  ! MPICH 4.0 raises errors of request completion on MPI_COMM_WORLD, not the request's
  ! communicator.
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Comm_get_errhandler(comm, handler)
  call expect(handler == MPI_ERRORS_RETURN, 'get_errhandler: MPI_ERRORS_RETURN')
  call MPI_Errhandler_free(handler)

  if (conf_rank == 0) then
    call MPI_Send(data, 1, MPI_INTEGER, size, 1, comm, code)
    call report('send to rank size', code, MPI_ERR_RANK)
    text = ''
    length = -1
    call MPI_Error_string(code, text, length)
    call expect(length > 0 .and. length <= MPI_MAX_ERROR_STRING .and. len_trim(text) <= length .and. &
                len_trim(text(1:length)) > 0, 'error_string: a text, its length')
    ! A request argument is only written by a call that succeeds; what it held before must not
    ! matter, a value no request has included.
    request%MPI_VAL = 123456
    call MPI_Isend(data, 1, MPI_INTEGER, -5, 1, comm, request, code)
    call report('isend to rank -5', code, MPI_ERR_RANK)
    call MPI_Recv(data, 1, MPI_INTEGER, 1, -3, comm, status, code)
    call report('recv with tag -3', code, MPI_ERR_TAG)
    call MPI_Send(data, -1, MPI_INTEGER, 1, 1, comm, code)
    call report('send of count -1', code, MPI_ERR_COUNT)
    call MPI_Send(data, 1, MPI_DATATYPE_NULL, 1, 1, comm, code)
    call report('send of a null datatype', code, MPI_ERR_TYPE)
    call MPI_Probe(size, 0, comm, status, code)
    call report('probe from rank size', code, MPI_ERR_RANK)
  end if
  call conf_check('errors-return')

  ! Truncation: eight integers into room for four.
  if (conf_rank == 1) then
    data = [(i, i = 0, 7)]
    do i = 0, 3
      call MPI_Send(data, 8, MPI_INTEGER, 0, 10 + i, comm)
    end do
    call MPI_Send(data, 2, MPI_INTEGER, 0, 14, comm)
  else if (conf_rank == 0) then
    ! What a truncating receive leaves in its status varies between libraries: printed.
    call reset_status(status)
    call MPI_Recv(small, 4, MPI_INTEGER, 1, 10, comm, status, code)
    call report('recv truncated', code, MPI_ERR_TRUNCATE)
    call print_error_status(status)

    call MPI_Irecv(small, 4, MPI_INTEGER, 1, 11, comm, request)
    call reset_status(status)
    call MPI_Wait(request, status, code)
    call report('wait truncated', code, MPI_ERR_TRUNCATE)
    call print_error_status(status)

    ! One truncated and one fine among several: MPI_ERR_IN_STATUS and per-request errors.
    other = -1
    call MPI_Irecv(small, 4, MPI_INTEGER, 1, 12, comm, requests(1))
    call MPI_Irecv(other, 8, MPI_INTEGER, 1, 14, comm, requests(2))
    call reset_status(statuses(1))
    call reset_status(statuses(2))
    call MPI_Waitall(2, requests, statuses, code)
    call report('waitall with one truncated', code, MPI_ERR_IN_STATUS)
    if (statuses(1)%MPI_ERROR == CONF_SENTINEL .and. statuses(2)%MPI_ERROR == CONF_SENTINEL) then
      call conf_print('  its statuses: not written back')
      call expect(other(1) == 1, 'waitall: the fine message received')
    else
      call report('  its status[0]', statuses(1)%MPI_ERROR, MPI_ERR_TRUNCATE)
      ! The other request may be completed (MPI_SUCCESS) or left pending (MPI_ERR_PENDING, as
      ! MPICH does when it stops at the first error, depending on when the message came).
      call expect(statuses(2)%MPI_ERROR == MPI_SUCCESS .or. statuses(2)%MPI_ERROR == MPI_ERR_PENDING, &
                  'waitall: the other request done or pending')
      if (statuses(2)%MPI_ERROR == MPI_ERR_PENDING) call MPI_Wait(requests(2), statuses(2))
      call expect(requests(2) == MPI_REQUEST_NULL, 'waitall: the other request done')
      call MPI_Get_count(statuses(2), MPI_INTEGER, count)
      call expect(count == 2 .and. statuses(2)%MPI_TAG == 14 .and. other(1) == 1, 'waitall: the fine message')
    end if

    ! Probe sees the whole message; a receive sized by it is not truncated.
    call MPI_Probe(1, 13, comm, status)
    call MPI_Get_count(status, MPI_INTEGER, count)
    call expect(count == 8, 'probe: the whole message')
    call MPI_Recv(other, count, MPI_INTEGER, 1, 13, comm, MPI_STATUS_IGNORE, code)
    call report('recv sized by probe', code, MPI_SUCCESS)
  end if
  call conf_check('truncation')

  ! The program goes on after errors: a normal exchange on the same communicator.
  right = mod(conf_rank + 1, size)
  left = mod(conf_rank + size - 1, size)
  in = -1
  call MPI_Sendrecv(conf_rank, 1, MPI_INTEGER, right, 20, in, 1, MPI_INTEGER, left, 20, comm, MPI_STATUS_IGNORE, code)
  call expect(code == MPI_SUCCESS .and. in == left, 'an exchange after the errors')
  call conf_check('after-errors')
  call MPI_Comm_free(comm)
  call conf_finish()

contains

  function class_name(code) result(name)
    integer, intent(in) :: code
    character(:), allocatable :: name
    integer :: class
    call MPI_Error_class(code, class)
    if (class == MPI_SUCCESS) then
      name = 'MPI_SUCCESS'
    else if (class == MPI_ERR_RANK) then
      name = 'MPI_ERR_RANK'
    else if (class == MPI_ERR_TAG) then
      name = 'MPI_ERR_TAG'
    else if (class == MPI_ERR_COUNT) then
      name = 'MPI_ERR_COUNT'
    else if (class == MPI_ERR_TYPE) then
      name = 'MPI_ERR_TYPE'
    else if (class == MPI_ERR_COMM) then
      name = 'MPI_ERR_COMM'
    else if (class == MPI_ERR_TRUNCATE) then
      name = 'MPI_ERR_TRUNCATE'
    else if (class == MPI_ERR_IN_STATUS) then
      name = 'MPI_ERR_IN_STATUS'
    else if (class == MPI_ERR_PENDING) then
      name = 'MPI_ERR_PENDING'
    else if (class == MPI_ERR_ARG) then
      name = 'MPI_ERR_ARG'
    else if (class == MPI_ERR_REQUEST) then
      name = 'MPI_ERR_REQUEST'
    else
      name = 'another class'
    end if
  end function class_name

  subroutine report(what, code, expected_class)
    character(*), intent(in) :: what
    integer, intent(in) :: code, expected_class
    integer :: class
    call MPI_Error_class(code, class)
    call expect(class == expected_class, what // ': class ' // str(expected_class))
    call conf_print(what // ': ' // class_name(code))
  end subroutine report

  subroutine print_error_status(status)
    type(MPI_Status), intent(in) :: status
    character(:), allocatable :: error
    if (status%MPI_ERROR == CONF_SENTINEL) then
      error = 'untouched'
    else
      error = class_name(status%MPI_ERROR)
    end if
    call conf_print('  its status: source=' // str(status%MPI_SOURCE) // ' tag=' // str(status%MPI_TAG) // &
                    ' error=' // error)
  end subroutine print_error_status

end program errhandler
