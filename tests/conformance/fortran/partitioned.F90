! Twin of partitioned.c through `use mpi`: partitioned communication (MPI 4), MPI_Psend_init,
! MPI_Precv_init, MPI_Pready(_range/_list) and MPI_Parrived (a logical flag), started twice.
! Precv_init from MPI_ANY_SOURCE is tried with errors returned and used only if the library takes
! it. Fortran has no MPI_VERSION macro: the build defines CONF_MPI_VERSION, the major version of
! the Fortran MPI, and before MPI 4 (Open MPI 4.1, whose Fortran bindings have none of these
! calls) the program prints "skipped" in every run, as the C program does.
program partitioned
#if CONF_MPI_VERSION >= 4
  ! MPICH 4.0's mpi module declares MPI_Parrived's flag INTEGER where the standard has LOGICAL:
  ! its interface is renamed away, and the program calls the binding without one, as an mpif.h
  ! program does.
  use mpi, interface_with_integer_flag => MPI_Parrived
#else
  use mpi
#endif
  use conf
  implicit none
  integer, parameter :: PARTITIONS = 4, PER_PARTITION = 8
#if CONF_MPI_VERSION >= 4
  integer :: round, p, i, ierror, request
  integer, asynchronous :: data(0:PARTITIONS * PER_PARTITION - 1)
  integer :: status(MPI_STATUS_SIZE)
  logical :: flag, any_source
#endif

  call conf_init()
#if CONF_MPI_VERSION >= 4
  if (conf_rank == 0) then
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierror)
    call MPI_Precv_init(data, PARTITIONS, int(PER_PARTITION, MPI_COUNT_KIND), MPI_INTEGER, MPI_ANY_SOURCE, 5, &
                        MPI_COMM_WORLD, MPI_INFO_NULL, request, ierror)
    any_source = ierror == MPI_SUCCESS
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, ierror)
    if (any_source) then
      call conf_print('precv_init from any source: accepted')
    else
      call conf_print('precv_init from any source: refused')
      call MPI_Precv_init(data, PARTITIONS, int(PER_PARTITION, MPI_COUNT_KIND), MPI_INTEGER, 1, 5, MPI_COMM_WORLD, &
                          MPI_INFO_NULL, request, ierror)
    end if
    do round = 0, 1
      data = -1
      call MPI_Start(request, ierror)
      call MPI_Barrier(MPI_COMM_WORLD, ierror)
      ! Partitions arrive in any order; each is checked once it has.
      do p = PARTITIONS - 1, 0, -1
        flag = .false.
        do while (.not. flag)
          call MPI_Parrived(request, p, flag, ierror)
        end do
        do i = 0, PER_PARTITION - 1
          call expect(data(p * PER_PARTITION + i) == 1000 * round + p * PER_PARTITION + i, &
                      'round ' // str(round) // ' partition ' // str(p))
        end do
      end do
      call reset_status(status)
      call MPI_Wait(request, status, ierror)
      call expect(status(MPI_SOURCE) == 1 .and. status(MPI_TAG) == 5, 'wait: source 1, tag 5')
      call conf_print('round ' // str(round) // ': source=' // str(status(MPI_SOURCE)) // ' tag=' // &
                      str(status(MPI_TAG)))
    end do
    call MPI_Request_free(request, ierror)
  else if (conf_rank == 1) then
    call MPI_Psend_init(data, PARTITIONS, int(PER_PARTITION, MPI_COUNT_KIND), MPI_INTEGER, 0, 5, MPI_COMM_WORLD, &
                        MPI_INFO_NULL, request, ierror)
    do round = 0, 1
      data = [(1000 * round + i, i = 0, PARTITIONS * PER_PARTITION - 1)]
      call MPI_Start(request, ierror)
      call MPI_Barrier(MPI_COMM_WORLD, ierror)
      if (round == 0) then
        do p = PARTITIONS - 1, 0, -1
          call MPI_Pready(p, request, ierror)
        end do
      else
        call MPI_Pready_range(1, 2, request, ierror)
        call MPI_Pready_list(2, [3, 0], request, ierror)
      end if
      call MPI_Wait(request, MPI_STATUS_IGNORE, ierror)
    end do
    call MPI_Request_free(request, ierror)
  else
    do round = 0, 1
      call MPI_Barrier(MPI_COMM_WORLD, ierror)
    end do
  end if
  call conf_check('partitioned')
#else
  call conf_print('skipped partitioned: MPI ' // str(MPI_VERSION) // '.' // str(MPI_SUBVERSION) // &
                  ' has no partitioned communication')
#endif
  call conf_finish()
end program partitioned
