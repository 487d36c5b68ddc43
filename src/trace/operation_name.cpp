#include "trace/operation_name.hpp"

#include <algorithm>
#include <cctype>
#include <map>

namespace augur::trace {

std::string operation_name(std::string_view mpi_name) {
  if (mpi_name.size() < 4 || !(mpi_name.substr(0, 4) == "MPI_" || mpi_name.substr(0, 4) == "mpi_"))
    return std::string(mpi_name);
  std::string name(mpi_name.substr(4));
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  static const std::map<std::string, std::string, std::less<>> renamed = {
      {"isend", "isend1"}, {"issend", "isend1"}, {"irsend", "isend1"}, {"ibsend", "isend1"},
      {"irecv", "irecv1"}, {"waitall", "wait"}, {"waitany", "wait"}, {"waitsome", "wait"},
      {"testall", "test"}, {"testany", "test"}, {"testsome", "test"}, {"sendrecv_replace", "sendrecv"}};
  if (auto it = renamed.find(name); it != renamed.end()) return it->second;
  return name;
}

}  // namespace augur::trace
