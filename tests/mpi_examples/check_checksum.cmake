# Runs one example program under mpirun at several process counts and checks that every run
# prints one well-formed result line and that all runs print the same checksum.
#
#   cmake -DLAUNCHER=<mpirun> -DLAUNCHER_FLAGS=<a,b> -DPROGRAM=<exe> -DARGS=<a,b> -DPROCS=<1,2,3>
#         -P check_checksum.cmake
# Lists are comma-separated because a semicolon would split the add_test argument.
foreach(var LAUNCHER PROGRAM PROCS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_checksum.cmake: ${var} is not set")
  endif()
endforeach()
string(REPLACE "," ";" flags "${LAUNCHER_FLAGS}")
string(REPLACE "," ";" args "${ARGS}")
string(REPLACE "," ";" procs "${PROCS}")

set(reference "")
foreach(np IN LISTS procs)
  execute_process(
    COMMAND ${LAUNCHER} ${flags} -np ${np} ${PROGRAM} ${args}
    RESULT_VARIABLE status
    OUTPUT_VARIABLE out
    ERROR_VARIABLE err
    TIMEOUT 120)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "p=${np}: exit status ${status}\n${out}${err}")
  endif()
  # One line: augur-example NAME key=value ... p=P time=T checksum=HEX
  if(NOT out MATCHES "augur-example [a-z0-9]+( [a-z]+=[^ \n]+)* p=([0-9]+) time=([0-9.]+) checksum=([0-9a-f]+)\n")
    message(FATAL_ERROR "p=${np}: no result line in the output:\n${out}${err}")
  endif()
  set(line "${CMAKE_MATCH_0}")
  if(NOT CMAKE_MATCH_2 EQUAL np)
    message(FATAL_ERROR "p=${np}: the program reports p=${CMAKE_MATCH_2}")
  endif()
  set(sum "${CMAKE_MATCH_4}")
  message(STATUS "${line}")
  if(reference STREQUAL "")
    set(reference "${sum}")
    set(reference_np "${np}")
  elseif(NOT sum STREQUAL reference)
    message(FATAL_ERROR "checksum at p=${np} is ${sum}, at p=${reference_np} it was ${reference}")
  endif()
endforeach()
