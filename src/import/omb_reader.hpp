#pragma once
// The OSU Micro-Benchmarks' output (5.x to 7.x): each benchmark's "# OSU MPI … Test vX.Y" line,
// its "# Datatype:" lines and its tables, with the columns of -f (min, max, iterations) where
// printed. A run on GPU buffers is refused: the model has no devices.
#include <istream>
#include <string>

#include "import/tables.hpp"

namespace augur::import {

// Throws ImportError naming the file, the line and the reason.
Document read_omb(std::istream& in, const std::string& source);

}  // namespace augur::import
