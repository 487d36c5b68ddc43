#pragma once
// Benchmark tables as augur's raw measurements (docs/raw-format.md), so that `augur fit` makes
// a model of a machine from the output others published, and what the files measured that the
// model cannot take, with the reason.
#include <string>
#include <vector>

#include "fit/raw.hpp"
#include "import/tables.hpp"

namespace augur::import {

struct ImportOptions {
  int processes = 0;         // for tables whose file does not say (OMB's collectives); 0: none given
  std::string machine_name;  // the model's machine; empty: "imported"
  // Ranks a node the runs were placed with, block by block; 0: not given. Kept in the provenance
  // with each table's nodes (the raw records have no placement fields yet).
  int ranks_per_node = 0;
};

struct Imported {
  fit::RawSet raw;
  // "FILE:LINE: BENCHMARK: reason", one per table not imported and per size the file printed
  // without a measurement (an IMB time-out)
  std::vector<std::string> left_out;
};

// Throws ImportError naming the file and the table's line when a table needs a process count
// that neither the file nor the options give.
Imported to_raw(const std::vector<Document>& documents, const ImportOptions& options);

}  // namespace augur::import
