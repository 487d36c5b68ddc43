// Communication patterns built from point-to-point calls (seed 002's one-to-many, many-to-one,
// many-to-many, and the congested send).
#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "bench/kernel.hpp"

namespace augur::bench {
namespace {

constexpr int kTag = 23;
constexpr int kRoot = 0;

std::byte* block(std::byte* base, const RepContext& c, int i) { return base + std::size_t(i) * c.bytes; }

// Half the ranks send to the other half. The pairing is drawn afresh for every repetition, the
// same on every rank, so no pair of nodes is favoured.
double allsend(RepContext& c) {
  std::vector<int> order(c.size());
  std::iota(order.begin(), order.end(), 0);
  std::mt19937 draw(static_cast<unsigned>(c.rep) * 7919u + static_cast<unsigned>(c.size()));
  std::shuffle(order.begin(), order.end(), draw);
  const int half = c.size() / 2;
  const int position = static_cast<int>(std::find(order.begin(), order.end(), c.rank()) - order.begin());
  if (position >= 2 * half) return 0;  // the odd one out
  const double t0 = MPI_Wtime();
  if (position < half) MPI_Send(c.send, c.count(), MPI_BYTE, order[position + half], kTag, c.comm());
  else MPI_Recv(c.recv, c.count(), MPI_BYTE, order[position - half], kTag, c.comm(), MPI_STATUS_IGNORE);
  return since(t0);
}

double onetomany(RepContext& c) {
  if (c.rank() != kRoot) {
    MPI_Recv(c.recv, c.count(), MPI_BYTE, kRoot, kTag, c.comm(), MPI_STATUS_IGNORE);
    return 0;
  }
  const double t0 = MPI_Wtime();
  for (int to = 0; to < c.size(); ++to)
    if (to != kRoot) MPI_Send(block(c.send, c, to), c.count(), MPI_BYTE, to, kTag, c.comm());
  return since(t0);
}

double manytoone(RepContext& c) {
  if (c.rank() != kRoot) {
    MPI_Send(c.send, c.count(), MPI_BYTE, kRoot, kTag, c.comm());
    return 0;
  }
  const double t0 = MPI_Wtime();
  for (int i = 1; i < c.size(); ++i)
    MPI_Recv(block(c.recv, c, i), c.count(), MPI_BYTE, MPI_ANY_SOURCE, kTag, c.comm(), MPI_STATUS_IGNORE);
  return since(t0);
}

double manytomany(RepContext& c) {
  std::vector<MPI_Request> requests;
  requests.reserve(2 * c.size());
  const double t0 = MPI_Wtime();
  for (int other = 0; other < c.size(); ++other) {
    if (other == c.rank()) continue;
    requests.emplace_back();
    MPI_Irecv(block(c.recv, c, other), c.count(), MPI_BYTE, other, kTag, c.comm(), &requests.back());
  }
  for (int other = 0; other < c.size(); ++other) {
    if (other == c.rank()) continue;
    requests.emplace_back();
    MPI_Isend(block(c.send, c, other), c.count(), MPI_BYTE, other, kTag, c.comm(), &requests.back());
  }
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  return since(t0);
}

const std::vector<Kernel> kKernels = {
    {"allsend", allsend},
    {"onetomany", onetomany},
    {"manytoone", manytoone},
    {"manytomany", manytomany},
};

}  // namespace

std::span<const Kernel> pattern_kernels() { return kKernels; }

}  // namespace augur::bench
