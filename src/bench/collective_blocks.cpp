#include "bench/collective_blocks.hpp"

namespace augur::bench {
namespace {

// Displacements count in elements for the v-forms and in bytes for alltoallw; with MPI_BYTE
// blocks the two agree, so one set serves both.
void equal_blocks(RepContext& c, int count) {
  auto& s = c.state;
  s.counts.assign(c.size(), count);
  s.displacements.resize(c.size());
  for (int i = 0; i < c.size(); ++i) s.displacements[i] = i * count;
  s.types.assign(c.size(), MPI_BYTE);
}

}  // namespace

void equal_byte_blocks(RepContext& c) { equal_blocks(c, c.count()); }
void equal_int_blocks(RepContext& c) { equal_blocks(c, c.ints()); }

}  // namespace augur::bench
