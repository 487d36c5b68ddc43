#pragma once
// Benchmark tables as augur's raw measurements (docs/raw-format.md), so that `augur fit` makes
// a model of a machine from the output others published, and what the files measured that the
// model cannot take, with the reason.
#include <map>
#include <string>
#include <vector>

#include "fit/raw.hpp"
#include "import/tables.hpp"

namespace augur::import {

struct ImportOptions {
  int processes = 0;         // for tables whose file does not say (OMB's collectives); 0: none given
  std::string machine_name;  // the model's machine; empty: "imported"
  // Ranks a node the runs were placed with, block by block; 0: not given. Kept in the provenance
  // with each table's nodes, and in the records where they make a machine of two levels.
  int ranks_per_node = 0;
  // The same for one file (its Document::source), over `ranks_per_node`: published results run
  // a ping-pong on one node and another between two, and collectives on full nodes.
  std::map<std::string, int> ranks_per_node_of{};
};

struct Imported {
  fit::RawSet raw;
  // "FILE:LINE: BENCHMARK: reason", one per table not imported and per size the file printed
  // without a measurement (an IMB time-out)
  std::vector<std::string> left_out;
  // With ranks a node given: whether the records make a machine of two levels (docs/nodes.md),
  // and if not, why they stay one level.
  std::string levels;
};

// Throws ImportError naming the file and the table's line when a table needs a process count
// that neither the file nor the options give.
Imported to_raw(const std::vector<Document>& documents, const ImportOptions& options);

}  // namespace augur::import
