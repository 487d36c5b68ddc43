#pragma once
// The calibration launch of a budgeted run (budget.hpp): world ranks 0 and 1 (on several nodes,
// 0 and the first rank of the second node) time an 8-byte
// ping-pong, and at 16 KiB, 128 KiB and the largest size a ping-pong and an exchange in both
// directions at once, which over a rate-limited link can cost more (both share the queue).
#include <cstdint>
#include <filesystem>

namespace augur::bench {

// Collective over MPI_COMM_WORLD; rank 0 writes {"latency", "bandwidth", "messages": [[bytes,
// one-way seconds], …], "seconds", "nodes", "ranks_per_node" (the fewest any node holds),
// "node_names", "block"} as JSON to
// `out` (seconds: the calibration's own time, so that `augur bench` can tell the launch's).
// `started` is MPI_Wtime just after MPI_Init.
void calibrate_network(std::uint64_t large_bytes, double started, const std::filesystem::path& out);

}  // namespace augur::bench
