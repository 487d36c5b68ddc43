#include "analyze/anomalies.hpp"

#include <fmt/format.h>

#include "analyze/order.hpp"

namespace augur::analyze {
namespace {

// Each candidate: its name and the tuning that shrinks it.
std::vector<std::pair<std::string, Tuning>> candidates(const sim::FlatProgram& program, const GrainIndex& grains,
                                                       double factor, std::size_t max_runs, Sweep& sweep) {
  std::vector<std::pair<std::string, Tuning>> out;
  if (!grains.phases().empty()) {
    sweep.grains = "phases";
    for (const auto& p : grains.phases()) out.push_back({p, Tuning{{{p, factor}}, {}, {}}});
    return out;
  }
  std::size_t total = 0;
  for (int r = 0; r < program.nranks(); ++r) total += grains.count(r);
  if (total <= max_runs) {
    sweep.grains = "grains";
    for (int r = 0; r < program.nranks(); ++r)
      for (std::uint32_t k = 0; k < grains.count(r); ++k) {
        auto name = fmt::format("{}:{}", r, k);
        out.push_back({name, Tuning{{{name, factor}}, {}, {}}});
      }
    return out;
  }
  sweep.grains = "ranks";
  for (int r = 0; r < program.nranks(); ++r)
    if (grains.count(r) > 0) out.push_back({fmt::format("rank {}", r), Tuning{{}, {{r, factor}}, {}}});
  return out;
}

}  // namespace

Sweep sweep_anomalies(const sim::FlatProgram& program, const SimulatedRun& baseline, const GrainIndex& grains,
                      const SimSetup& setup, double factor, std::size_t max_runs) {
  Sweep sweep;
  sweep.factor = factor;
  auto list = candidates(program, grains, factor, max_runs, sweep);
  if (list.size() > max_runs) {
    sweep.note = fmt::format("{} {} to try; only the first {} were (raise --max-runs)", list.size(), sweep.grains, max_runs);
    list.resize(max_runs);
  }
  for (const auto& [name, tuning] : list) {
    const auto run = resimulate(*tuned_program(program, tuning, grains), setup);
    ++sweep.tried;
    if (run.time > baseline.time * (1 + 1e-12))  // not rounding noise
      sweep.anomalies.push_back({name, baseline.time, run.time, order_changes(baseline.trace, run.trace)});
  }
  return sweep;
}

}  // namespace augur::analyze
