#include "node/ma_bound.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include <fmt/format.h>

#include "model/error.hpp"

namespace augur::node {
namespace {

// The largest term, first named on ties in the order of the seed's formula.
std::pair<double, std::string> largest(const std::array<std::pair<double, const char*>, 5>& terms) {
  std::pair<double, std::string> best{terms[0].first, terms[0].second};
  for (const auto& [value, name] : terms)
    if (value > best.first) best = {value, name};
  return best;
}

// The memory term: misses are serviced one at a time, while hits go two a cycle with the
// effective latencies L_eff = 1 + penalty·m_l and S_eff = 1 + penalty·m_s.
double memory_term(const LoopCounts& loop, const NodeParams& node) {
  const double miss_time = loop.l * loop.m_l * (1 + node.load_miss_cycles) + loop.s * loop.m_s * (1 + node.store_miss_cycles);
  const double l_eff = 1 + node.load_miss_cycles * loop.m_l;
  const double s_eff = 1 + node.store_miss_cycles * loop.m_s;
  return std::max(miss_time, (loop.l * l_eff + loop.s * s_eff) / node.mem_per_cycle);
}

// The cache size seen in a sweep: the largest working set accessed within 1.5 times the time
// of the smallest. 0 when the sweep is too short to tell.
double cache_from_sweep(const std::vector<model::CacheSweepPoint>& sweep) {
  if (sweep.size() < 2) return 0;
  double fits = 0;
  for (const auto& point : sweep)
    if (point.seconds_per_access <= 1.5 * sweep.front().seconds_per_access) fits = point.bytes;
  return fits < sweep.back().bytes ? fits : 0;
}

}  // namespace

Bound ma_bound(const LoopCounts& loop, const NodeParams& node, bool include_t_d) {
  Bound b;
  const double fp_busy = loop.f_a + loop.f_m + loop.f_ma + node.div_cycles * loop.f_div + node.sqrt_cycles * loop.f_sqrt;
  b.t_f_arith = fp_busy / node.fp_per_cycle;
  b.t_f = std::max({loop.l / node.mem_per_cycle, loop.s / node.mem_per_cycle, b.t_f_arith});
  b.t_fx = (loop.l + loop.s) / node.mem_per_cycle;
  b.t_m = memory_term(loop, node);
  b.t_i = (loop.f_a + loop.f_m + loop.f_ma + loop.f_div + loop.f_sqrt + loop.l + loop.s) / node.issue_per_cycle;
  b.t_d = loop.t_d;
  std::tie(b.t_l, b.limit) =
      largest({{{b.t_f, "t_f"}, {b.t_fx, "t_fx"}, {b.t_m, "t_m"}, {b.t_i, "t_i"}, {include_t_d ? b.t_d : 0, "t_d"}}});
  b.flops = loop.f_a + loop.f_m + 2 * loop.f_ma + 4 * loop.f_div + 4 * loop.f_sqrt;
  b.cpf = b.flops > 0 ? b.t_l / b.flops : 0;
  b.mflops = b.cpf > 0 ? node.clock_hz / b.cpf / 1e6 : 0;
  b.seconds = b.t_l / node.clock_hz;
  return b;
}

double capacity_misses(double blocks, double cache_blocks, double associativity, double arrays) {
  const double d = std::clamp(arrays, 1.0, associativity);
  if (blocks < cache_blocks) return 0;
  if (blocks > cache_blocks * (1 + d / associativity)) return blocks;
  return blocks * (blocks - cache_blocks) / (d * cache_blocks / associativity);
}

double capacity_miss_rate(const NodeParams& node, double bytes, double arrays, double elem_bytes) {
  const double blocks = bytes / node.line_bytes;
  const double accesses = bytes / elem_bytes;
  if (accesses <= 0) return 0;
  return capacity_misses(blocks, node.cache_bytes / node.line_bytes, node.associativity, arrays) / accesses;
}

std::optional<NodeParams> builtin_node(const std::string& name) {
  if (name != "power2-thin") return std::nullopt;
  return NodeParams{.derivation = "IBM POWER2 thin node, 66.7 MHz (seed 002 §4): two FPUs with fused multiply-add, "
                                  "two load/store units, four instructions a cycle; 64 KiB 4-way data cache with 64 B "
                                  "lines, load miss 16.3 cycles, store miss 22.0"};
}

NodeParams node_for(const model::Model& machine) {
  const auto& name = machine.machine.name;
  if (name == "sp2-mpl" || name == "sp2-pvme") return *builtin_node("power2-thin");
  const auto& c = machine.compute;
  if (!(c.flops > 0))
    throw model::QueryError(fmt::format(
        "machine '{}' has no node model: its compute section gives no flop rate (compute.flops, which `augur bench` "
        "measures); the SP2 models use the POWER2 thin node",
        name));
  NodeParams n;  // the POWER2 shape, scaled to the measured rates
  n.name = name + " (derived)";
  n.clock_hz = c.flops / (2 * n.fp_per_cycle);  // flops counts independent fmas: 2 flops per FPU a cycle
  std::string memory = "miss penalties are the POWER2 thin node's cycles (no compute.memory_bandwidth)";
  if (c.memory_bandwidth > 0) {
    n.load_miss_cycles = n.store_miss_cycles = n.line_bytes / c.memory_bandwidth * n.clock_hz;
    memory = fmt::format("a miss costs one {:g} B line at compute.memory_bandwidth, {:.1f} cycles", n.line_bytes,
                         n.load_miss_cycles);
  }
  if (double cache = cache_from_sweep(c.cache_sweep); cache > 0) n.cache_bytes = cache;
  n.derivation = fmt::format(
      "derived from the compute section: the POWER2 issue shape (2 FP, 2 load/store, 4 instructions a cycle) at a "
      "clock of compute.flops / 4 = {:.4g} MHz; {}; cache {:g} KiB",
      n.clock_hz / 1e6, memory, n.cache_bytes / 1024);
  return n;
}

}  // namespace augur::node
