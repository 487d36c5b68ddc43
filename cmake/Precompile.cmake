# Precompiled headers for the targets with many translation units.
#
# Nearly every file includes nlohmann/json and fmt (model.hpp pulls in json), and every test file
# gtest. Parsing them again in each file was about a fifth of the compile time of a file with
# gcc -O2 -g, so each large target parses them once into a precompiled header.
# -DAUGUR_PCH=OFF builds without, e.g. to check that each file includes what it uses.
option(AUGUR_PCH "Precompile the heavy third-party and standard headers" ON)

set(AUGUR_PCH_HEADERS
  <nlohmann/json.hpp> <fmt/format.h>
  <algorithm> <array> <cmath> <cstdint> <filesystem> <fstream> <limits> <map> <memory>
  <optional> <set> <sstream> <stdexcept> <string> <string_view> <utility> <vector>)

# augur_precompile_headers(TARGET [GTEST]): GTEST adds gtest/gtest.h for the test programs.
function(augur_precompile_headers target)
  if(NOT AUGUR_PCH)
    return()
  endif()
  set(headers ${AUGUR_PCH_HEADERS})
  if("GTEST" IN_LIST ARGN)
    list(APPEND headers <gtest/gtest.h>)
  endif()
  # Only for targets of C++ sources alone.
  target_precompile_headers(${target} PRIVATE ${headers})
  # ccache (scripts/test) can cache files compiled with a precompiled header only if gcc names the
  # header in its preprocessed output, or clang leaves the header's timestamp out of the PCH.
  # Without ccache neither changes the build.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(${target} PRIVATE -fpch-preprocess)
  elseif(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    target_compile_options(${target} PRIVATE "SHELL:-Xclang -fno-pch-timestamp")
  endif()
endfunction()
