// The non-blocking collectives: the post and the MPI_Wait that completes it, timed together.
#include <vector>

#include "bench/collective_blocks.hpp"
#include "bench/kernel.hpp"

namespace augur::bench {
namespace {

template <void (*post)(RepContext&, MPI_Request*)>
void completed(RepContext& c) {
  MPI_Request request;
  post(c, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
}

template <void (*post)(RepContext&, MPI_Request*)>
Kernel nonblocking(std::string_view name, void (*setup)(RepContext&) = nullptr) {
  return whole_call<completed<post>>(name, setup);
}

void ibarrier(RepContext& c, MPI_Request* r) { MPI_Ibarrier(c.comm(), r); }
void ibcast(RepContext& c, MPI_Request* r) { MPI_Ibcast(c.send, c.count(), MPI_BYTE, c.root, c.comm(), r); }
void ireduce(RepContext& c, MPI_Request* r) {
  MPI_Ireduce(c.send, c.recv, c.ints(), MPI_INT, MPI_SUM, c.root, c.comm(), r);
}
void iallreduce(RepContext& c, MPI_Request* r) {
  MPI_Iallreduce(c.send, c.recv, c.ints(), MPI_INT, MPI_SUM, c.comm(), r);
}
void igather(RepContext& c, MPI_Request* r) {
  MPI_Igather(c.send, c.count(), MPI_BYTE, c.recv, c.count(), MPI_BYTE, c.root, c.comm(), r);
}
void igatherv(RepContext& c, MPI_Request* r) {
  auto& s = c.state;
  MPI_Igatherv(c.send, c.count(), MPI_BYTE, c.recv, s.counts.data(), s.displacements.data(), MPI_BYTE, c.root,
               c.comm(), r);
}
void iscatter(RepContext& c, MPI_Request* r) {
  MPI_Iscatter(c.send, c.count(), MPI_BYTE, c.recv, c.count(), MPI_BYTE, c.root, c.comm(), r);
}
void iscatterv(RepContext& c, MPI_Request* r) {
  auto& s = c.state;
  MPI_Iscatterv(c.send, s.counts.data(), s.displacements.data(), MPI_BYTE, c.recv, c.count(), MPI_BYTE, c.root,
                c.comm(), r);
}
void iallgather(RepContext& c, MPI_Request* r) {
  MPI_Iallgather(c.send, c.count(), MPI_BYTE, c.recv, c.count(), MPI_BYTE, c.comm(), r);
}
void iallgatherv(RepContext& c, MPI_Request* r) {
  auto& s = c.state;
  MPI_Iallgatherv(c.send, c.count(), MPI_BYTE, c.recv, s.counts.data(), s.displacements.data(), MPI_BYTE,
                  c.comm(), r);
}
void ialltoall(RepContext& c, MPI_Request* r) {
  MPI_Ialltoall(c.send, c.count(), MPI_BYTE, c.recv, c.count(), MPI_BYTE, c.comm(), r);
}
void ialltoallv(RepContext& c, MPI_Request* r) {
  auto& s = c.state;
  MPI_Ialltoallv(c.send, s.counts.data(), s.displacements.data(), MPI_BYTE, c.recv, s.counts.data(),
                 s.displacements.data(), MPI_BYTE, c.comm(), r);
}
void ialltoallw(RepContext& c, MPI_Request* r) {
  auto& s = c.state;
  MPI_Ialltoallw(c.send, s.counts.data(), s.displacements.data(), s.types.data(), c.recv, s.counts.data(),
                 s.displacements.data(), s.types.data(), c.comm(), r);
}
void ireduce_scatter(RepContext& c, MPI_Request* r) {
  MPI_Ireduce_scatter(c.send, c.recv, c.state.counts.data(), MPI_INT, MPI_SUM, c.comm(), r);
}
void ireduce_scatter_block(RepContext& c, MPI_Request* r) {
  MPI_Ireduce_scatter_block(c.send, c.recv, c.ints(), MPI_INT, MPI_SUM, c.comm(), r);
}
void iscan(RepContext& c, MPI_Request* r) { MPI_Iscan(c.send, c.recv, c.ints(), MPI_INT, MPI_SUM, c.comm(), r); }
void iexscan(RepContext& c, MPI_Request* r) {
  MPI_Iexscan(c.send, c.recv, c.ints(), MPI_INT, MPI_SUM, c.comm(), r);
}

const std::vector<Kernel> kKernels = {
    nonblocking<ibarrier>("ibarrier"),
    nonblocking<ibcast>("ibcast"),
    nonblocking<ireduce>("ireduce"),
    nonblocking<iallreduce>("iallreduce"),
    nonblocking<igather>("igather"),
    nonblocking<igatherv>("igatherv", equal_byte_blocks),
    nonblocking<iscatter>("iscatter"),
    nonblocking<iscatterv>("iscatterv", equal_byte_blocks),
    nonblocking<iallgather>("iallgather"),
    nonblocking<iallgatherv>("iallgatherv", equal_byte_blocks),
    nonblocking<ialltoall>("ialltoall"),
    nonblocking<ialltoallv>("ialltoallv", equal_byte_blocks),
    nonblocking<ialltoallw>("ialltoallw", equal_byte_blocks),
    nonblocking<ireduce_scatter>("ireduce_scatter", equal_int_blocks),
    nonblocking<ireduce_scatter_block>("ireduce_scatter_block"),
    nonblocking<iscan>("iscan"),
    nonblocking<iexscan>("iexscan"),
};

}  // namespace

std::span<const Kernel> nonblocking_collective_kernels() { return kKernels; }

}  // namespace augur::bench
