#pragma once
// Which operation of the model (src/model/catalog.cpp) a benchmark's table measures, or why
// none does.
#include <string>
#include <string_view>

namespace augur::import {

struct Mapping {
  std::string operation;  // empty when the model has none for the benchmark
  std::string why_not;    // then: the reason, for the report
  bool pair = false;      // an operation between two partners, priced at p = 2
};

// `benchmark` as the file names it ("OSU MPI Allreduce Latency Test", "PingPong").
Mapping omb_operation(std::string_view benchmark);
Mapping imb_operation(std::string_view benchmark);

}  // namespace augur::import
