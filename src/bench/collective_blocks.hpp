#pragma once
// Per-rank counts and displacements for the v- and w-collectives: every rank contributes the
// same block, as in the seeds, so the v-forms are comparable with the plain ones.
#include "bench/kernel.hpp"

namespace augur::bench {

void equal_byte_blocks(RepContext& c);  // counts in bytes, MPI_BYTE
void equal_int_blocks(RepContext& c);   // counts in ints, for reduce_scatter

}  // namespace augur::bench
