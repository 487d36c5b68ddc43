#include "node/node.hpp"

#include <algorithm>

#include "node/cache_info.hpp"
#include "node/kernels.hpp"

namespace augur::node {
namespace {

constexpr std::size_t kMiB = std::size_t(1) << 20;

// A quick run caps each array at 128 MiB: one core reaches only its own slice of a last-level
// cache (32-96 MiB on an EPYC), while a virtual machine's processor may report the whole
// socket's (508 MiB), and three arrays of 1 GiB cost seconds of page faults before any timing.
std::size_t triad_array_bytes(bool quick) {
  return std::clamp<std::size_t>(2 * last_level_cache_bytes(), 32 * kMiB, (quick ? 128 : 1024) * kMiB);
}

nlohmann::json to_json(const Timing& t) {
  return {{"slice_seconds", t.slice}, {"budget_seconds", t.budget}, {"min_runs", t.min_runs}};
}

}  // namespace

NodeSettings node_settings(bool quick) {
  NodeSettings s;
  s.kernel = quick ? Timing{0.01, 0.08, 3} : Timing{0.02, 0.3, 3};
  s.sweep_point = quick ? Timing{0.002, 0.015, 3} : Timing{0.004, 0.06, 3};
  s.triad_array_bytes = triad_array_bytes(quick);
  s.line_bytes = cache_line_bytes();
  return s;
}

nlohmann::json to_json(const NodeSettings& s) {
  return {{"kernel_timing", to_json(s.kernel)},
          {"sweep_timing", to_json(s.sweep_point)},
          {"triad_array_bytes", s.triad_array_bytes},
          {"sweep_bytes", {s.sweep_smallest, s.sweep_largest}},
          {"line_bytes", s.line_bytes},
          {"last_level_cache_bytes", last_level_cache_bytes()},
          {"clock", "std::chrono::steady_clock, least time of the runs"}};
}

model::Compute measure_node(const NodeSettings& s) {
  model::Compute c;
  c.seconds_per_step = seconds_per_step(s.kernel);
  c.flops = flop_rate(s.kernel);
  c.memory_bandwidth = memory_bandwidth(s.triad_array_bytes, s.kernel);
  c.cache_sweep = cache_sweep(s.sweep_smallest, s.sweep_largest, s.line_bytes, s.sweep_point);
  return c;
}

}  // namespace augur::node
