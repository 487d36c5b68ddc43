# Finds a Fortran compiler and the Fortran bindings of the MPI the shim is built against, for the
# tests' Fortran programs. A macro, since languages are enabled at directory scope: sets
# AUGUR_FORTRAN_MPI to TRUE, or to FALSE with AUGUR_FORTRAN_MPI_MISSING saying why.
macro(augur_find_fortran_mpi)
  set(AUGUR_FORTRAN_MPI FALSE)
  set(AUGUR_FORTRAN_MPI_MISSING)
  include(CheckLanguage)
  check_language(Fortran)
  if(NOT CMAKE_Fortran_COMPILER)
    set(AUGUR_FORTRAN_MPI_MISSING "no Fortran compiler")
  else()
    enable_language(Fortran)
    find_package(MPI COMPONENTS Fortran)
    if(NOT MPI_Fortran_FOUND)
      set(AUGUR_FORTRAN_MPI_MISSING "no Fortran MPI")
    else()
      # The programs run under the shim, which is built against the C MPI: a Fortran MPI of
      # another library (mpif90 is Open MPI's on Debian while mpicc.mpich is MPICH's) cannot.
      foreach(library ${MPI_C_LIBRARIES})
        if(NOT library IN_LIST MPI_Fortran_LIBRARIES)
          set(AUGUR_FORTRAN_MPI_MISSING
              "the Fortran MPI (${MPI_Fortran_COMPILER}) is not the C one (${MPI_C_COMPILER}); give -DMPI_Fortran_COMPILER")
        endif()
      endforeach()
      if(NOT AUGUR_FORTRAN_MPI_MISSING)
        set(AUGUR_FORTRAN_MPI TRUE)
      endif()
    endif()
  endif()
endmacro()
