// Fitting a full machine: 20 operations × 10 group sizes × 24 message sizes with every
// hypothesis of the wide family and automatic breakpoint detection (target: under 1 s).
// Run: build/bin/bench_fit --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <array>
#include <cmath>
#include <random>
#include <string>

#include "fit/fitter.hpp"

namespace {

using augur::fit::Measurement;

constexpr std::array<const char*, 20> kOperations = {
    "bcast",   "reduce",     "allreduce",  "gather",     "gatherv",       "scatter", "scatterv",
    "allgather", "allgatherv", "alltoall", "alltoallv", "reduce_scatter", "scan",    "exscan",
    "ibcast",  "ireduce",    "iallreduce", "iallgather", "ialltoall",     "igather"};

// A law per operation in µs (p processes, b bytes), half of them with a protocol switch at
// 64 KiB: latency up by a third, per-byte cost down by a fifth.
double law(int op, double p, double b) {
  const double startup = (op % 3 == 0) ? 6 * p : (op % 3 == 1) ? 20 * std::log2(p) : 3 * std::sqrt(p) * std::log2(p);
  const double per_byte = (op % 4 == 0) ? 0.001 * p : (op % 4 == 1) ? 0.002 * std::log2(p) : 0.0005 * p * std::log2(p);
  double t = 20 + op + startup + per_byte * b;
  if (op % 2 == 1 && b >= 65536) t += (20 + startup) / 3 - 0.2 * per_byte * (b - 65536);
  return t;
}

augur::fit::RawSet machine_measurements() {
  std::mt19937_64 rng(42);
  std::normal_distribution<double> noise(0, 0.03);
  augur::fit::RawSet raw;
  raw.header = {{"augur_raw", 1}, {"machine", {{"name", "synthetic"}}}};
  for (int op = 0; op < static_cast<int>(kOperations.size()); ++op)
    for (double p = 2; p <= 1024; p *= 2)
      for (int e = 0; e < 24; ++e) {
        const double bytes = std::ldexp(1.0, e);
        const double t = law(op, p, bytes) * 1e-6;
        Measurement m;
        m.op = kOperations[op];
        m.p = static_cast<int>(p);
        m.bytes = bytes;
        m.reps = 20;
        m.median = m.mean = t * (1 + noise(rng));
        m.min = std::min(m.median, t * 0.97);
        m.max = std::max(m.median, t * 1.1);
        m.stddev = 0.03 * t * std::sqrt(20.0);
        raw.points.push_back(m);
      }
  return raw;
}

void BM_FitMachineWideFamily(benchmark::State& state) {
  const auto raw = machine_measurements();
  augur::fit::FitOptions options;
  options.family = augur::fit::Family::wide;
  options.detect_breakpoints = true;
  std::size_t regimes = 0;
  for (auto _ : state) {
    auto model = augur::fit::fit_model(raw, options).model;
    regimes = 0;
    for (const auto& [name, op] : model.operations) regimes += op.regimes.size();
    benchmark::DoNotOptimize(model);
  }
  state.counters["operations"] = static_cast<double>(kOperations.size());
  state.counters["points"] = static_cast<double>(raw.points.size());
  state.counters["regimes"] = static_cast<double>(regimes);
}
BENCHMARK(BM_FitMachineWideFamily)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
