// Communicator management. Each call makes a communicator that is freed outside the timed part
// (comm_free times the free of one made outside it).
#include <vector>

#include "bench/kernel.hpp"

namespace augur::bench {
namespace {

double comm_dup(RepContext& c) {
  MPI_Comm made;
  const double t0 = MPI_Wtime();
  MPI_Comm_dup(c.comm(), &made);
  const double t = since(t0);
  MPI_Comm_free(&made);
  return t;
}

// Splits into the even and the odd ranks, the commonest use (rows and columns of a grid).
double comm_split(RepContext& c) {
  MPI_Comm made;
  const double t0 = MPI_Wtime();
  MPI_Comm_split(c.comm(), c.rank() % 2, c.rank(), &made);
  const double t = since(t0);
  MPI_Comm_free(&made);
  return t;
}

void make_even_group(RepContext& c) {
  MPI_Group all;
  MPI_Comm_group(c.comm(), &all);
  std::vector<int> even;
  for (int r = 0; r < c.size(); r += 2) even.push_back(r);
  MPI_Group_incl(all, static_cast<int>(even.size()), even.data(), &c.state.half);
  MPI_Group_free(&all);
}

void free_even_group(RepContext& c) { MPI_Group_free(&c.state.half); }

double comm_create(RepContext& c) {
  MPI_Comm made;
  const double t0 = MPI_Wtime();
  MPI_Comm_create(c.comm(), c.state.half, &made);
  const double t = since(t0);
  if (made != MPI_COMM_NULL) MPI_Comm_free(&made);
  return t;
}

void dup_before_sync(RepContext& c) { MPI_Comm_dup(c.comm(), &c.state.scratch); }

double comm_free(RepContext& c) {
  const double t0 = MPI_Wtime();
  MPI_Comm_free(&c.state.scratch);
  return since(t0);
}

const std::vector<Kernel> kKernels = {
    {"comm_dup", comm_dup},
    {"comm_split", comm_split},
    {"comm_create", comm_create, nullptr, make_even_group, free_even_group},
    {"comm_free", comm_free, dup_before_sync},
};

}  // namespace

std::span<const Kernel> communicator_kernels() { return kKernels; }

}  // namespace augur::bench
