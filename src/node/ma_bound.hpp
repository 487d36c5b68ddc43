#pragma once
// The machine–application bound of seed 002 (docs/node-model.md): a loop's operation counts and
// a node's issue rates and miss penalties give the fewest cycles one iteration can take, the
// cycles per flop (CPF) and the MFLOPS the loop can reach. A lower bound on time: what the
// compiler or the memory system loses comes on top.
#include <optional>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace augur::node {

// What one iteration of a loop does. Counts may be fractions (an unrolled body divided out).
struct LoopCounts {
  double f_a = 0, f_m = 0, f_ma = 0, f_div = 0, f_sqrt = 0;  // adds, multiplies, fmas, divides, roots
  double l = 0, s = 0;      // loads and stores
  double t_d = 0;           // cycles of the longest loop-carried dependence path (0 = none)
  double m_l = 0, m_s = 0;  // miss rates of the loads and stores, 0..1
};

// A node as the bound sees it. The defaults are the POWER2 thin node: two FPUs with fused
// multiply-add, two fixed-point units doing the loads and stores, four instructions a cycle.
struct NodeParams {
  std::string name = "power2-thin";
  double clock_hz = 66.7e6;
  double fp_per_cycle = 2;      // floating-point instructions issued a cycle
  double mem_per_cycle = 2;     // loads and stores a cycle
  double issue_per_cycle = 4;   // instructions of any kind a cycle
  double div_cycles = 17, sqrt_cycles = 27;  // an FPU is busy this long with one
  double load_miss_cycles = 15.3, store_miss_cycles = 21.0;  // L_eff = 1 + 15.3 m_l, S_eff = 1 + 21.0 m_s
  double cache_bytes = 64 << 10, associativity = 4, line_bytes = 64;
  std::string derivation;       // how the parameters were found, for the reader
};

// Every term in cycles per iteration, t_l the largest, and what follows from it.
struct Bound {
  double t_f_arith = 0;  // the arithmetic part of t_f (the table's t_f column)
  double t_f = 0, t_fx = 0, t_m = 0, t_i = 0, t_d = 0;
  double t_l = 0;
  double flops = 0;       // weighted: f_a + f_m + 2 f_ma + 4 f_div + 4 f_sqrt
  double cpf = 0;         // cycles per flop
  double mflops = 0;      // clock / CPF, in millions
  double seconds = 0;     // per iteration
  std::string limit;      // the term that sets t_l: "t_f", "t_fx", "t_m", "t_i" or "t_d"
};

// `include_t_d` false reproduces the Livermore table's rule for LFK5, which leaves t_d out of t_l.
Bound ma_bound(const LoopCounts& loop, const NodeParams& node, bool include_t_d = true);

// Misses of one sweep over B cache blocks in a cache of C blocks, A-way associative, with D
// arrays in the working set (clamped to 1..A): 0 when the working set fits, every block when it
// is far larger, and a quadratic ramp between (seed 002 §4).
double capacity_misses(double blocks, double cache_blocks, double associativity, double arrays);

// The miss rate of stride-1 accesses to `elem_bytes` elements over a working set of `bytes`.
double capacity_miss_rate(const NodeParams& node, double bytes, double arrays, double elem_bytes = 8);

// The built-in nodes, by name: "power2-thin".
std::optional<NodeParams> builtin_node(const std::string& name);

// The node of a machine model: the POWER2 thin node for the SP2 models; otherwise derived from
// the compute section's flop rate (and memory bandwidth). Throws model::QueryError naming what
// is missing when the model says too little.
NodeParams node_for(const model::Model& machine);

}  // namespace augur::node
