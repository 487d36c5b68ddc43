#include "bench/node_section.hpp"

#include <mpi.h>

#include <chrono>
#include <cstdio>

#include "bench/group.hpp"
#include "model/model_json.hpp"
#include "node/node.hpp"

namespace augur::bench {

void add_node_section(nlohmann::json& header, bool quick, bool progress) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    // One process on one node: the kernels describe a processor, and a second rank running them
    // at the same time would share its memory bandwidth and caches.
    if (progress) std::fprintf(stderr, "augur-bench-mpi: node kernels on rank 0 …\n");
    const auto settings = node::node_settings(quick);
    const auto start = std::chrono::steady_clock::now();
    header["compute"] = model::to_json(node::measure_node(settings));
    auto record = node::to_json(settings);
    record["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    record["rank"] = 0;
    record["host"] = header["provenance"]["settings"]["placement"][0]["host"];
    header["provenance"]["settings"]["node_kernels"] = record;
  }
  idle_barrier();
}

}  // namespace augur::bench
