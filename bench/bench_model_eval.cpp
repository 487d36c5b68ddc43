// Model evaluations per second through the library API: the reverse profiler asks the model
// on every MPI call, so evaluation must cost well under a microsecond.
#include <benchmark/benchmark.h>

#include "fit/fitter.hpp"
#include "model/machines.hpp"
#include "model/model_json.hpp"

namespace {

// A fitted three-term form as `augur fit` writes it (bcast with three regimes).
augur::model::Model fitted_model() {
  return augur::model::parse_model(R"json({
    "augur_model": 1, "machine": {"name": "bench"}, "provenance": {"source": "benchmark"},
    "units": {"time": "us", "size": "bytes"},
    "operations": {"bcast": {"regimes": [
      {"from": 0, "to": 4096, "form": {"terms": [{"basis": "1", "coef": 3, "stderr": 0.1},
        {"basis": "log2(p)", "coef": 1.5, "stderr": 0.05}, {"basis": "log2(p)*d", "coef": 0.001, "stderr": 1e-5}],
        "chi2": 1, "q": 1, "points": 10, "statistic": "median"}},
      {"from": 4096, "to": 65536, "form": {"terms": [{"basis": "1", "coef": 9, "stderr": 0.1},
        {"basis": "p", "coef": 1.5, "stderr": 0.05}, {"basis": "log(p)*d", "coef": 0.0007, "stderr": 1e-5}],
        "chi2": 1, "q": 1, "points": 10, "statistic": "median"}},
      {"from": 65536, "form": {"terms": [{"basis": "1", "coef": 40, "stderr": 1},
        {"basis": "p^2", "coef": 0.5, "stderr": 0.05}, {"basis": "p*d", "coef": 0.0002, "stderr": 1e-6}],
        "chi2": 1, "q": 1, "points": 10, "statistic": "median"}}]}}})json",
                                   "bench");
}

void run_evaluations(benchmark::State& state, const augur::model::Model& m, const char* name,
                     augur::model::Bound bound) {
  const auto& op = m.at(name);
  double p = 2, bytes = 1;
  double sink = 0;
  for (auto _ : state) {
    sink += m.seconds(op, p, bytes, bound);
    p = p < 512 ? p * 2 : 2;
    bytes = bytes < 1e6 ? bytes * 3 : 1;
  }
  benchmark::DoNotOptimize(sink);
  state.SetItemsProcessed(state.iterations());
}

void BM_FittedFormAvg(benchmark::State& state) {
  static const auto m = fitted_model();
  run_evaluations(state, m, "bcast", augur::model::Bound::avg);
}
void BM_FittedFormMax(benchmark::State& state) {
  static const auto m = fitted_model();
  run_evaluations(state, m, "bcast", augur::model::Bound::max);
}
void BM_FreeExpression(benchmark::State& state) {
  static const auto m = augur::model::load_machine("sp2-mpl");
  run_evaluations(state, m, "bcast", augur::model::Bound::avg);
}
void BM_LookupByNameThenEvaluate(benchmark::State& state) {
  static const auto m = fitted_model();
  double sink = 0;
  for (auto _ : state) sink += m.seconds("bcast", 16, 8192);
  benchmark::DoNotOptimize(sink);
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

BENCHMARK(BM_FittedFormAvg);
BENCHMARK(BM_FittedFormMax);
BENCHMARK(BM_FreeExpression);
BENCHMARK(BM_LookupByNameThenEvaluate);
BENCHMARK_MAIN();
