#include "trace/synthetic.hpp"

#include <algorithm>
#include <memory>
#include <random>
#include <vector>

#include "trace/writer.hpp"

namespace augur::trace {

namespace {

constexpr int kAllreduceEvery = 8;
constexpr std::uint64_t kEventsPerIteration = 5;  // compute, send state + record, recv state + record
constexpr double kLatency = 20e-6, kBandwidth = 1e9, kReceiveOverhead = 2e-6;

struct RankClock {
  std::unique_ptr<RankWriter> writer;
  NameId send, recv, allreduce;
  double now = 0;
};

}  // namespace

std::uint64_t write_synthetic_trace(const std::filesystem::path& dir, const SyntheticTraceSpec& spec) {
  std::mt19937 random(spec.seed);
  std::uniform_real_distribution<double> compute(50e-6, 150e-6);
  std::uniform_int_distribution<int> size_log(3, 16);
  TraceHeader header{spec.mode, "synthetic", "seconds", "augur trace synth"};
  std::vector<RankClock> ranks(spec.ranks);
  for (int r = 0; r < spec.ranks; ++r) {
    ranks[r].writer = std::make_unique<RankWriter>(dir, r, spec.ranks, header);
    ranks[r].send = ranks[r].writer->name_id("MPI_Send");
    ranks[r].recv = ranks[r].writer->name_id("MPI_Recv");
    ranks[r].allreduce = ranks[r].writer->name_id("MPI_Allreduce");
    ranks[r].writer->phase_begin(0, "solve");
  }
  std::uint64_t iterations = std::max<std::uint64_t>(1, spec.events / (kEventsPerIteration * spec.ranks));
  std::uint64_t written = 2ull * spec.ranks;
  std::vector<double> sent(spec.ranks);
  for (std::uint64_t it = 0; it < iterations; ++it) {
    auto bytes = std::uint64_t(1) << size_log(random);
    double transfer = kLatency + double(bytes) / kBandwidth;
    for (int r = 0; r < spec.ranks; ++r) {
      auto& rc = ranks[r];
      double c = compute(random) * spec.compute_scale;
      rc.writer->state(rc.now, rc.now + c, StateKind::compute);
      rc.now += c;
      rc.writer->send(rc.now, (r + 1) % spec.ranks, 0, bytes, 0);
      rc.writer->state(rc.now, rc.now + kLatency, StateKind::mpi, rc.send);
      sent[r] = rc.now;
      rc.now += kLatency;
    }
    for (int r = 0; r < spec.ranks; ++r) {
      auto& rc = ranks[r];
      int left = (r + spec.ranks - 1) % spec.ranks;
      double arrival = std::max(rc.now + kReceiveOverhead, sent[left] + transfer);
      rc.writer->recv(rc.now, arrival, left, 0, bytes, 0);
      rc.writer->state(rc.now, arrival, StateKind::mpi, rc.recv);
      rc.now = arrival;
    }
    written += kEventsPerIteration * spec.ranks;
    if ((it + 1) % kAllreduceEvery != 0) continue;
    double latest = 0;
    for (auto& rc : ranks) latest = std::max(latest, rc.now);
    for (auto& rc : ranks) {
      double end = latest + 2 * kLatency;
      rc.writer->state(rc.now, end, StateKind::mpi, rc.allreduce);
      rc.writer->collective(rc.now, end, rc.allreduce, 0, -1, 8);
      rc.now = end;
    }
    written += 2ull * spec.ranks;
  }
  for (auto& rc : ranks) rc.writer->phase_end(rc.now, "solve");
  return written;
}

}  // namespace augur::trace
