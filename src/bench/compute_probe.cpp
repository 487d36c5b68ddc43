#include "bench/compute_probe.hpp"

#include <chrono>
#include <cstdint>

#include "node/kernels.hpp"
#include "node/timing.hpp"

namespace augur::bench {

double probe_compute_speed() {
  using clock = std::chrono::steady_clock;
  static std::uint64_t x = 0x5bd1e995ULL;
  const auto start = clock::now();
  x = node::compute_steps(x, kComputeProbeSteps);
  const std::chrono::duration<double> spent = clock::now() - start;
  node::keep(x);
  return spent.count() / static_cast<double>(kComputeProbeSteps);
}

}  // namespace augur::bench
