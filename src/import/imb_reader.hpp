#pragma once
// The Intel MPI Benchmarks' output (IMB-MPI1 and IMB-NBC, 2018 to 2021): the banner with its
// Date, Machine, System … lines, and one table per "# Benchmarking NAME" with the
// "# #processes = N" it ran at, so -npmin's tables at several process counts and -multi's
// groups each become a table of their own.
#include <istream>
#include <string>

#include "import/tables.hpp"

namespace augur::import {

// Throws ImportError naming the file, the line and the reason.
Document read_imb(std::istream& in, const std::string& source);

}  // namespace augur::import
