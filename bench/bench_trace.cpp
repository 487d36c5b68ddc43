// Trace throughput: events per second read from a native trace and turned into a summary, a
// Chrome JSON file or an OTF2 archive. The trace is ten million events on 16 ranks, written once
// (AUGUR_BENCH_TRACE_EVENTS overrides the size for a quick run).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>

#include "trace/exporters.hpp"
#include "trace/native_reader.hpp"
#include "trace/summary.hpp"
#include "trace/synthetic.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path& trace_dir() {
  static const fs::path dir = [] {
    auto d = fs::temp_directory_path() / "augur-bench-trace";
    fs::remove_all(d);
    std::uint64_t events = 10'000'000;
    if (const char* env = std::getenv("AUGUR_BENCH_TRACE_EVENTS")) events = std::strtoull(env, nullptr, 10);
    augur::trace::write_synthetic_trace(d, {.ranks = 16, .events = events});
    return d;
  }();
  return dir;
}

template <class Consume>
void run(benchmark::State& state, Consume consume) {
  std::uint64_t events = 0;
  for (auto _ : state) {
    auto trace = augur::trace::read_native_trace(trace_dir());
    consume(trace);
    events += trace.event_count();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(events));
}

void BM_ReadAndSummarize(benchmark::State& state) {
  run(state, [](const auto& t) { benchmark::DoNotOptimize(augur::trace::summarize(t)); });
}

void BM_ReadAndExportChromeJson(benchmark::State& state) {
  auto out = fs::temp_directory_path() / "augur-bench-trace.json";
  run(state, [&](const auto& t) { augur::trace::export_chrome_json(t, out); });
  fs::remove(out);
}

void BM_ReadAndExportOtf2(benchmark::State& state) {
  auto out = fs::temp_directory_path() / "augur-bench-trace-otf2";
  run(state, [&](const auto& t) { augur::trace::export_otf2(t, out); });
  fs::remove_all(out);
}

BENCHMARK(BM_ReadAndSummarize)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(5)->ReportAggregatesOnly(true)->UseRealTime();
BENCHMARK(BM_ReadAndExportChromeJson)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(3)->ReportAggregatesOnly(true)->UseRealTime();
BENCHMARK(BM_ReadAndExportOtf2)->Unit(benchmark::kMillisecond)->Iterations(1)->Repetitions(3)->ReportAggregatesOnly(true)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
