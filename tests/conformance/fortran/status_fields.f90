! Twin of status_fields.c through `use mpi`: every status field after each single-completion
! call, with statuses as integer arrays of MPI_STATUS_SIZE indexed by MPI_SOURCE, MPI_TAG and
! MPI_ERROR; MPI_STATUS_IGNORE, MPI_STATUSES_IGNORE and an array of statuses in MPI_Waitall.
! MPI_ERROR is printed where the Fortran bindings define it (conf.f90, print_status): after the
! receives and probes, whose status MPI writes in place, and in MPI_Waitall's statuses.
program status_fields
  use mpi
  use conf
  implicit none
  integer, parameter :: MESSAGES = 12
  integer :: size, i, j, ierror, payload(0:MESSAGES)
  integer, asynchronous :: data(0:MESSAGES), first(0:MESSAGES - 1), second(0:MESSAGES - 1)
  integer :: status(MPI_STATUS_SIZE), statuses(MPI_STATUS_SIZE, 2)
  integer :: request, requests(2), message
  integer :: right, left, out, in
  logical :: flag

  call conf_init()
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierror)

  if (conf_rank == 1) then
    ! Message `tag` carries `tag` integers, so each count identifies its message.
    do i = 1, MESSAGES
      do j = 0, i - 1
        payload(j) = 100 * i + j
      end do
      call MPI_Send(payload, i, MPI_INTEGER, 0, i, MPI_COMM_WORLD, ierror)
    end do
  else if (conf_rank == 0) then
    call reset_status(status)
    call MPI_Recv(data, MESSAGES, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, status, ierror)
    call expect(status(MPI_SOURCE) == 1 .and. status(MPI_TAG) == 1, 'recv: source 1, tag 1')
    call expect_data(data, 1)
    call print_status('recv', status, MPI_INTEGER, .true.)

    call reset_status(status)
    call MPI_Irecv(data, MESSAGES, MPI_INTEGER, 1, 2, MPI_COMM_WORLD, request, ierror)
    call MPI_Wait(request, status, ierror)
    call expect(status(MPI_SOURCE) == 1 .and. status(MPI_TAG) == 2 .and. request == MPI_REQUEST_NULL, &
                'irecv+wait: source 1, tag 2, request null')
    call expect_data(data, 2)
    call print_status('irecv+wait', status, MPI_INTEGER, .false.)

    call MPI_Irecv(data, MESSAGES, MPI_INTEGER, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, request, ierror)
    flag = .false.
    do while (.not. flag)
      call reset_status(status)
      call MPI_Test(request, flag, status, ierror)
    end do
    call expect(status(MPI_SOURCE) == 1 .and. status(MPI_TAG) == 3, 'irecv+test: source 1, tag 3')
    call expect_data(data, 3)
    call print_status('irecv+test', status, MPI_INTEGER, .false.)

    call reset_status(status)
    call MPI_Probe(MPI_ANY_SOURCE, 4, MPI_COMM_WORLD, status, ierror)
    call expect(status(MPI_SOURCE) == 1 .and. status(MPI_TAG) == 4, 'probe: source 1, tag 4')
    call print_status('probe', status, MPI_INTEGER, .true.)
    call MPI_Recv(data, MESSAGES, MPI_INTEGER, 1, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierror)
    call expect_data(data, 4)

    flag = .false.
    do while (.not. flag)
      call reset_status(status)
      call MPI_Iprobe(1, MPI_ANY_TAG, MPI_COMM_WORLD, flag, status, ierror)
    end do
    call expect(status(MPI_SOURCE) == 1 .and. status(MPI_TAG) == 5, 'iprobe: source 1, tag 5')
    call print_status('iprobe', status, MPI_INTEGER, .true.)
    call reset_status(status)
    call MPI_Recv(data, MESSAGES, MPI_INTEGER, 1, 5, MPI_COMM_WORLD, status, ierror)
    call expect_data(data, 5)
    call print_status('recv after iprobe', status, MPI_INTEGER, .true.)

    call reset_status(status)
    call MPI_Mprobe(MPI_ANY_SOURCE, 6, MPI_COMM_WORLD, message, status, ierror)
    call expect(status(MPI_SOURCE) == 1 .and. status(MPI_TAG) == 6, 'mprobe: source 1, tag 6')
    call print_status('mprobe', status, MPI_INTEGER, .true.)
    call reset_status(status)
    call MPI_Mrecv(data, MESSAGES, MPI_INTEGER, message, status, ierror)
    call expect(message == MPI_MESSAGE_NULL .and. status(MPI_SOURCE) == 1 .and. status(MPI_TAG) == 6, &
                'mrecv: message null, source 1, tag 6')
    call expect_data(data, 6)
    call print_status('mrecv', status, MPI_INTEGER, .true.)

    flag = .false.
    do while (.not. flag)
      call reset_status(status)
      call MPI_Improbe(1, 7, MPI_COMM_WORLD, flag, message, status, ierror)
    end do
    call expect(status(MPI_SOURCE) == 1 .and. status(MPI_TAG) == 7, 'improbe: source 1, tag 7')
    call print_status('improbe', status, MPI_INTEGER, .true.)
    call MPI_Imrecv(data, MESSAGES, MPI_INTEGER, message, request, ierror)
    call reset_status(status)
    call MPI_Wait(request, status, ierror)
    call expect(status(MPI_SOURCE) == 1 .and. status(MPI_TAG) == 7, 'imrecv+wait: source 1, tag 7')
    call expect_data(data, 7)
    call print_status('imrecv+wait', status, MPI_INTEGER, .false.)

    ! A completed receive seen through MPI_Request_get_status stays active until freed.
    call MPI_Irecv(data, MESSAGES, MPI_INTEGER, 1, 8, MPI_COMM_WORLD, request, ierror)
    flag = .false.
    do while (.not. flag)
      call reset_status(status)
      call MPI_Request_get_status(request, flag, status, ierror)
    end do
    call expect(request /= MPI_REQUEST_NULL .and. status(MPI_SOURCE) == 1 .and. status(MPI_TAG) == 8, &
                'request_get_status: request kept, source 1, tag 8')
    call print_status('request_get_status', status, MPI_INTEGER, .false.)
    call reset_status(status)
    call MPI_Request_get_status(request, flag, status, ierror)
    call expect(flag, 'request_get_status again: flag')
    call print_status('request_get_status again', status, MPI_INTEGER, .false.)
    call reset_status(status)
    call MPI_Wait(request, status, ierror)
    call expect(status(MPI_SOURCE) == 1 .and. status(MPI_TAG) == 8, 'wait after request_get_status: source 1, tag 8')
    call expect_data(data, 8)
    call print_status('wait after request_get_status', status, MPI_INTEGER, .false.)

    call MPI_Irecv(data, MESSAGES, MPI_INTEGER, 1, 9, MPI_COMM_WORLD, request, ierror)
    call MPI_Wait(request, MPI_STATUS_IGNORE, ierror)
    call expect_data(data, 9)

    call MPI_Irecv(first, MESSAGES, MPI_INTEGER, 1, 10, MPI_COMM_WORLD, requests(1), ierror)
    call MPI_Irecv(second, MESSAGES, MPI_INTEGER, MPI_ANY_SOURCE, 11, MPI_COMM_WORLD, requests(2), ierror)
    call MPI_Waitall(2, requests, MPI_STATUSES_IGNORE, ierror)
    call expect_data(first, 10)
    call expect_data(second, 11)

    call MPI_Irecv(data, MESSAGES, MPI_INTEGER, 1, 12, MPI_COMM_WORLD, requests(1), ierror)
    requests(2) = MPI_REQUEST_NULL
    call reset_status(statuses(:, 1))
    call reset_status(statuses(:, 2))
    call MPI_Waitall(2, requests, statuses, ierror)
    call expect_data(data, 12)
    call print_status('waitall[0]', statuses(:, 1), MPI_INTEGER, .true.)
    call print_status('waitall[1] null request', statuses(:, 2), MPI_INTEGER, .true.)
  end if
  call conf_check('status-fields')

  ! An exchange whose status is ignored.
  right = mod(conf_rank + 1, size)
  left = mod(conf_rank + size - 1, size)
  out = conf_rank
  in = -1
  call MPI_Sendrecv(out, 1, MPI_INTEGER, right, 50, in, 1, MPI_INTEGER, left, 50, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE, ierror)
  call expect(in == left, 'sendrecv with MPI_STATUS_IGNORE: data from the left')
  call reset_status(status)
  call MPI_Sendrecv(out, 1, MPI_INTEGER, right, 51, in, 1, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, &
                    MPI_COMM_WORLD, status, ierror)
  call expect(in == left .and. status(MPI_SOURCE) == left .and. status(MPI_TAG) == 51, &
              'sendrecv: data, source and tag from the left')
  call print_status('sendrecv', status, MPI_INTEGER, .false.)
  call conf_check('status-ignore')
  call conf_finish()

contains

  subroutine expect_data(received, tag)
    integer, intent(in) :: received(0:), tag
    integer :: k
    do k = 0, tag - 1
      call expect(received(k) == 100 * tag + k, 'message ' // str(tag) // ' element ' // str(k))
    end do
  end subroutine expect_data

end program status_fields
