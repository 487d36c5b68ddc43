# Every dependency comes from a Debian package (see scripts/install-deps.sh).
find_package(Eigen3 3.3 REQUIRED NO_MODULE)
find_package(Boost 1.74 REQUIRED)                       # header-only Boost.Math
find_package(nlohmann_json 3.10 REQUIRED)
find_package(fmt REQUIRED)
find_package(CLI11 QUIET CONFIG)
if(NOT CLI11_FOUND)
  find_path(CLI11_INCLUDE_DIR CLI/CLI.hpp REQUIRED)
  add_library(CLI11::CLI11 INTERFACE IMPORTED)
  target_include_directories(CLI11::CLI11 INTERFACE ${CLI11_INCLUDE_DIR})
endif()
find_package(PkgConfig REQUIRED)
pkg_check_modules(MUPARSER REQUIRED IMPORTED_TARGET muparser)
pkg_check_modules(OTF2 REQUIRED IMPORTED_TARGET otf2)   # trace export (src/trace)
# The diff template library (header-only): the longest common subsequence of long call
# sequences in O(ND) (src/learn/time_blocks.cpp).
find_path(DTL_INCLUDE_DIR dtl/dtl.hpp REQUIRED)
add_library(dtl::dtl INTERFACE IMPORTED)
target_include_directories(dtl::dtl INTERFACE ${DTL_INCLUDE_DIR})
find_package(GTest REQUIRED)
if(AUGUR_BENCHMARKS)
  find_package(benchmark REQUIRED)
endif()
if(AUGUR_MPI)
  find_package(MPI COMPONENTS C)
  # MPICH defines MPI_STATUSES_IGNORE as (MPI_Status *)1 and declares MPI_Waitall's statuses as
  # an array, so GCC 12's -Wstringop-overflow reports every MPI_Waitall(n, r, MPI_STATUSES_IGNORE)
  # as writing into a zero-size region. Only code that includes MPICH's mpi.h loses the check.
  if(TARGET MPI::MPI_C AND CMAKE_C_COMPILER_ID STREQUAL "GNU" AND MPI_C_LIBRARIES MATCHES "mpich")
    set_property(TARGET MPI::MPI_C APPEND PROPERTY INTERFACE_COMPILE_OPTIONS
                 $<$<COMPILE_LANGUAGE:C,CXX>:-Wno-stringop-overflow>)
  endif()
endif()
