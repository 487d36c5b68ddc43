#include "bench/clock_sync.hpp"

#include <algorithm>
#include <array>
#include <vector>
#include <limits>

namespace augur::bench {
namespace {

constexpr int kTag = 29;
constexpr int kRoundTrips = 12;  // the fastest of these decides: queueing only ever adds delay

// Rank 0's half: sends its clock, gets the partner's reading back, and keeps the exchange with
// the shortest round trip, whose midpoint is the best guess of when the partner read its clock.
ClockOffset probe_partner(const Group& group, int partner) {
  ClockOffset best{0, std::numeric_limits<double>::infinity()};
  for (int i = 0; i < kRoundTrips; ++i) {
    const double sent = MPI_Wtime();
    double theirs = 0;
    MPI_Send(&sent, 1, MPI_DOUBLE, partner, kTag, group.comm);
    MPI_Recv(&theirs, 1, MPI_DOUBLE, partner, kTag, group.comm, MPI_STATUS_IGNORE);
    const double back = MPI_Wtime();
    const double half_trip = (back - sent) / 2;
    if (half_trip < best.uncertainty) best = {theirs - (sent + half_trip), half_trip};
  }
  return best;
}

void answer_probes(const Group& group) {
  for (int i = 0; i < kRoundTrips; ++i) {
    double sent = 0;
    MPI_Recv(&sent, 1, MPI_DOUBLE, 0, kTag, group.comm, MPI_STATUS_IGNORE);
    const double mine = MPI_Wtime();
    MPI_Send(&mine, 1, MPI_DOUBLE, 0, kTag, group.comm);
  }
}

}  // namespace

ClockOffset estimate_clock_offset(const Group& group) {
  // Rank 0 measures each partner in turn and scatters (offset, uncertainty) pairs.
  std::vector<double> pairs;
  if (group.rank == 0) {
    pairs.assign(2 * static_cast<std::size_t>(group.size), 0.0);
    for (int partner = 1; partner < group.size; ++partner) {
      const auto o = probe_partner(group, partner);
      pairs[2 * partner] = o.offset;
      pairs[2 * partner + 1] = o.uncertainty;
    }
  } else {
    answer_probes(group);
  }
  std::array<double, 2> mine{};
  MPI_Scatter(pairs.data(), 2, MPI_DOUBLE, mine.data(), 2, MPI_DOUBLE, 0, group.comm);
  double worst = mine[1];
  MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MAX, group.comm);
  return {mine[0], worst};
}

}  // namespace augur::bench
