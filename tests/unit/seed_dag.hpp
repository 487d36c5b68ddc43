#pragma once
// Seed 004's DAG, which the critical-path and the sensitivity tests both walk.
#include "sim/program/program.hpp"
#include "sim_program.hpp"

namespace augur_test {

// Source 20 on rank 0 feeds 50 (rank 1) → 90 (rank 2) and a side branch 60 (rank 3); the sink
// (10, rank 0) needs both. The longest path: 20 + 50 + 90 + 10.
inline augur::sim::FlatProgram seed_dag() {
  using namespace augur::sim;
  return program({{compute_op(20), send_op(1, 8), send_op(3, 8), recv_op(2), recv_op(3), compute_op(10)},
                  {recv_op(0), compute_op(50), send_op(2, 8)},
                  {recv_op(1), compute_op(90), send_op(0, 8)},
                  {recv_op(0), compute_op(60), send_op(0, 8)}});
}

}  // namespace augur_test
