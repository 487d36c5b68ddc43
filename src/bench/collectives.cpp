// The blocking collectives, rooted at RepContext::root (rank 0 unless a sequence hands it on).
// Reductions add MPI_INTs (MPI_SUM).
#include <vector>

#include "bench/collective_blocks.hpp"
#include "bench/kernel.hpp"

namespace augur::bench {
namespace {

template <void (*call)(RepContext&)>
Kernel collective(std::string_view name, void (*setup)(RepContext&) = nullptr) {
  return whole_call<call>(name, setup);
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
    collective<barrier>("barrier"),
    collective<bcast>("bcast"),
    collective<reduce>("reduce"),
    collective<allreduce>("allreduce"),
    collective<gather>("gather"),
    collective<gatherv>("gatherv", equal_byte_blocks),
    collective<scatter>("scatter"),
    collective<scatterv>("scatterv", equal_byte_blocks),
    collective<allgather>("allgather"),
    collective<allgatherv>("allgatherv", equal_byte_blocks),
    collective<alltoall>("alltoall"),
    collective<alltoallv>("alltoallv", equal_byte_blocks),
    collective<alltoallw>("alltoallw", equal_byte_blocks),
    collective<reduce_scatter>("reduce_scatter", equal_int_blocks),
    collective<reduce_scatter_block>("reduce_scatter_block"),
    collective<scan>("scan"),
    collective<exscan>("exscan"),
};

}  // namespace

std::span<const Kernel> collective_kernels() { return kKernels; }

}  // namespace augur::bench
