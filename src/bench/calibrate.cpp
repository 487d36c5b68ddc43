#include "bench/calibrate.hpp"

#include <mpi.h>

#include <algorithm>
#include <fstream>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/nodes.hpp"

namespace augur::bench {
namespace {

constexpr int kTag = 7;
constexpr std::uint64_t kSmallBytes = 8;
// Small messages: the median of 5 blocks of 20 round trips, after 20 untimed ones (the first
// messages over TCP open the connection). A machine busy with other work slows the sweep far
// more than it slows these; the run adapts to that as it goes (budget.hpp).
constexpr int kSmallBlocks = 5, kSmallRounds = 20;
// Larger messages: one untimed round, then these many timed, and their mean taken: a round
// stalled by the link (a retransmission) is what the sweep will pay too. Over TCP through a
// token bucket here a 128 KiB send took 100 ms where its bandwidth says 1 ms, so the sizes
// between are measured too, not only the largest.
constexpr int kLargeRounds = 3;
constexpr std::uint64_t kMessageSizes[] = {16 * 1024, 128 * 1024, 1024 * 1024};

// The two ranks calibrated: world rank 0 and, on several nodes, the first rank of the next node,
// since the slower link is the one the budget must hold.
struct Pair {
  int rank = 0;
  int other = 1;  // world rank 0's partner

  bool member() const { return rank == 0 || rank == other; }
  int peer() const { return rank == 0 ? other : 0; }
};

// Seconds per round of `rounds` round trips of `bytes` between the pair; with `both_ways` each
// round is a simultaneous exchange instead. Other ranks take no part.
double rounds_seconds(std::vector<char>& send, std::vector<char>& recv, std::uint64_t bytes, int rounds,
                      bool both_ways, const Pair& pair) {
  const int rank = pair.rank;
  if (!pair.member()) return 0;
  const int peer = pair.peer();
  const int count = static_cast<int>(bytes);
  const double start = MPI_Wtime();
  for (int i = 0; i < rounds; ++i) {
    if (both_ways) {
      MPI_Sendrecv(send.data(), count, MPI_BYTE, peer, kTag, recv.data(), count, MPI_BYTE, peer, kTag, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
    } else if (rank == 0) {
      MPI_Send(send.data(), count, MPI_BYTE, peer, kTag, MPI_COMM_WORLD);
      MPI_Recv(recv.data(), count, MPI_BYTE, peer, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(recv.data(), count, MPI_BYTE, peer, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(send.data(), count, MPI_BYTE, peer, kTag, MPI_COMM_WORLD);
    }
  }
  return (MPI_Wtime() - start) / rounds;
}

// One-way seconds of a large message: the mean over timed rounds, after an untimed one.
double large_one_way(std::vector<char>& send, std::vector<char>& recv, std::uint64_t bytes, bool both_ways,
                     const Pair& pair) {
  rounds_seconds(send, recv, bytes, 1, both_ways, pair);
  const double round = rounds_seconds(send, recv, bytes, kLargeRounds, both_ways, pair);
  // A round trip carries the message twice; an exchange carries it once each way at once.
  return both_ways ? round : round / 2;
}

}  // namespace

void calibrate_network(std::uint64_t large_bytes, double started, const std::filesystem::path& out) {
  large_bytes = std::max(large_bytes, kSmallBytes);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const auto nodes = find_nodes();
  const Pair pair{rank, nodes.machine.several() ? nodes.first_ranks[1] : 1};
  std::vector<char> send(large_bytes, 1), recv(large_bytes);
  MPI_Barrier(MPI_COMM_WORLD);
  rounds_seconds(send, recv, kSmallBytes, kSmallRounds, false, pair);
  std::vector<double> small;
  for (int i = 0; i < kSmallBlocks; ++i)
    small.push_back(rounds_seconds(send, recv, kSmallBytes, kSmallRounds, false, pair) / 2);
  std::sort(small.begin(), small.end());
  const double latency = small[kSmallBlocks / 2];
  nlohmann::json messages = nlohmann::json::array();
  double large = 0;
  for (std::uint64_t bytes : kMessageSizes) {
    bytes = std::min(bytes, large_bytes);
    large = std::max(large_one_way(send, recv, bytes, false, pair), large_one_way(send, recv, bytes, true, pair));
    messages.push_back({bytes, large});
    if (bytes == large_bytes) break;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank != 0) return;
  // At least a nanosecond per kilobyte, so a clock that read nothing does not plan for infinity.
  const double transfer = std::max(large - latency, double(large_bytes) * 1e-12);
  const nlohmann::json result = {{"latency", latency},
                                 {"bandwidth", double(large_bytes) / transfer},
                                 {"large_bytes", large_bytes},
                                 {"messages", messages},
                                 {"seconds", MPI_Wtime() - started},
                                 {"nodes", nodes.machine.nodes},
                                 {"ranks_per_node", nodes.machine.ranks_per_node},
                                 {"node_names", nodes.hosts},
                                 {"block", nodes.block}};
  std::ofstream file(out);
  file << result.dump() << "\n";
  if (!file) throw std::runtime_error("cannot write " + out.string());
}

}  // namespace augur::bench
