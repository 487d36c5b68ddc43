// The blocking collectives, rooted at RepContext::root (rank 0 unless a sequence hands it on).
// Reductions add MPI_INTs (MPI_SUM).
#include <vector>

#include "bench/collective_blocks.hpp"
#include "bench/kernel.hpp"

namespace augur::bench {
namespace {

template <void (*call)(RepContext&)>
double timed(RepContext& c) {
  const double t0 = MPI_Wtime();
  call(c);
  return since(t0);
}

void barrier(RepContext& c) { MPI_Barrier(c.comm()); }
void bcast(RepContext& c) { MPI_Bcast(c.send, c.count(), MPI_BYTE, c.root, c.comm()); }
void reduce(RepContext& c) { MPI_Reduce(c.send, c.recv, c.ints(), MPI_INT, MPI_SUM, c.root, c.comm()); }
void allreduce(RepContext& c) { MPI_Allreduce(c.send, c.recv, c.ints(), MPI_INT, MPI_SUM, c.comm()); }
void gather(RepContext& c) {
  MPI_Gather(c.send, c.count(), MPI_BYTE, c.recv, c.count(), MPI_BYTE, c.root, c.comm());
}
void gatherv(RepContext& c) {
  auto& s = c.state;
  MPI_Gatherv(c.send, c.count(), MPI_BYTE, c.recv, s.counts.data(), s.displacements.data(), MPI_BYTE, c.root,
              c.comm());
}
void scatter(RepContext& c) {
  MPI_Scatter(c.send, c.count(), MPI_BYTE, c.recv, c.count(), MPI_BYTE, c.root, c.comm());
}
void scatterv(RepContext& c) {
  auto& s = c.state;
  MPI_Scatterv(c.send, s.counts.data(), s.displacements.data(), MPI_BYTE, c.recv, c.count(), MPI_BYTE, c.root,
               c.comm());
}
void allgather(RepContext& c) {
  MPI_Allgather(c.send, c.count(), MPI_BYTE, c.recv, c.count(), MPI_BYTE, c.comm());
}
void allgatherv(RepContext& c) {
  auto& s = c.state;
  MPI_Allgatherv(c.send, c.count(), MPI_BYTE, c.recv, s.counts.data(), s.displacements.data(), MPI_BYTE,
                 c.comm());
}
void alltoall(RepContext& c) {
  MPI_Alltoall(c.send, c.count(), MPI_BYTE, c.recv, c.count(), MPI_BYTE, c.comm());
}
void alltoallv(RepContext& c) {
  auto& s = c.state;
  MPI_Alltoallv(c.send, s.counts.data(), s.displacements.data(), MPI_BYTE, c.recv, s.counts.data(),
                s.displacements.data(), MPI_BYTE, c.comm());
}
void alltoallw(RepContext& c) {
  auto& s = c.state;
  MPI_Alltoallw(c.send, s.counts.data(), s.displacements.data(), s.types.data(), c.recv, s.counts.data(),
                s.displacements.data(), s.types.data(), c.comm());
}
void reduce_scatter(RepContext& c) {
  MPI_Reduce_scatter(c.send, c.recv, c.state.counts.data(), MPI_INT, MPI_SUM, c.comm());
}
void reduce_scatter_block(RepContext& c) {
  MPI_Reduce_scatter_block(c.send, c.recv, c.ints(), MPI_INT, MPI_SUM, c.comm());
}
void scan(RepContext& c) { MPI_Scan(c.send, c.recv, c.ints(), MPI_INT, MPI_SUM, c.comm()); }
void exscan(RepContext& c) { MPI_Exscan(c.send, c.recv, c.ints(), MPI_INT, MPI_SUM, c.comm()); }

const std::vector<Kernel> kKernels = {
    {"barrier", timed<barrier>},
    {"bcast", timed<bcast>},
    {"reduce", timed<reduce>},
    {"allreduce", timed<allreduce>},
    {"gather", timed<gather>},
    {"gatherv", timed<gatherv>, nullptr, equal_byte_blocks},
    {"scatter", timed<scatter>},
    {"scatterv", timed<scatterv>, nullptr, equal_byte_blocks},
    {"allgather", timed<allgather>},
    {"allgatherv", timed<allgatherv>, nullptr, equal_byte_blocks},
    {"alltoall", timed<alltoall>},
    {"alltoallv", timed<alltoallv>, nullptr, equal_byte_blocks},
    {"alltoallw", timed<alltoallw>, nullptr, equal_byte_blocks},
    {"reduce_scatter", timed<reduce_scatter>, nullptr, equal_int_blocks},
    {"reduce_scatter_block", timed<reduce_scatter_block>},
    {"scan", timed<scan>},
    {"exscan", timed<exscan>},
};

}  // namespace

std::span<const Kernel> collective_kernels() { return kKernels; }

}  // namespace augur::bench
