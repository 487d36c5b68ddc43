#pragma once
// Parasol's line-oriented machine description (docs/machine-format.md, "Parasol's format"):
// `begin machine … end machine` with processor timings, a topology with its link list, routing
// names and machine combinations, read into a Machine. Errors give the line.
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/network/machine.hpp"

namespace augur::sim {

struct ParasolError : std::runtime_error {
  using std::runtime_error::runtime_error;  // "file:line: reason"
};

struct ParasolMachine {
  Machine machine;
  std::string routing;  // as named in the file: XY, 2Dtorus, broadcast …
  double setup = 0;     // the topology's setup time, seconds
  // Per processor type (by its id): timing name -> values (time, and its spread when given).
  std::map<int, std::map<std::string, std::vector<double>>> timings;
  // The processors' and the machine's combinations, name = expression, unevaluated.
  std::vector<std::pair<std::string, std::string>> combinations;
};

ParasolMachine parse_parasol(std::string_view text, const std::string& source);
ParasolMachine load_parasol(const std::string& path);

}  // namespace augur::sim
