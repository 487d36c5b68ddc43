#pragma once
// The raw file's header: which machine, which MPI library, where the processes ran, when, and
// with which settings (docs/raw-format.md). The fitter carries it into the model.
#include <string>

#include <nlohmann/json.hpp>

#include "bench/settings.hpp"

namespace augur::bench {

struct LibraryName {
  std::string library;  // "Open MPI", "MPICH", or the first line of the version string
  std::string version;
};

// Splits the text of MPI_Get_library_version into the library's name and version.
LibraryName parse_library_version(const std::string& text);

// The CPU model named in /proc/cpuinfo, or "" where there is none.
std::string cpu_model();

// Collective over MPI_COMM_WORLD; the result is complete on rank 0. `machine_name` empty means
// one derived from rank 0's host name.
nlohmann::json run_header(const SweepSettings& settings, const std::string& machine_name);

}  // namespace augur::bench
