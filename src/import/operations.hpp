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
  // A table of bandwidths (MB/s of all pairs together) becomes a time per message: each of the
  // p/2 pairs moves `ways` messages (1 one way, 2 both ways) of the size in ways × pairs × size
  // / bandwidth. 0: the table prints times.
  int ways = 0;
  // IMB -multi: each group's table is one pass of the operation run by all groups' pairs at
  // once, at the processes of all groups (so far the bandwidth tables: p/2 pairs streaming).
  bool groups_together = false;
};

// `benchmark` as the file names it ("OSU MPI Allreduce Latency Test", "PingPong").
Mapping omb_operation(std::string_view benchmark);
Mapping imb_operation(std::string_view benchmark);

}  // namespace augur::import
