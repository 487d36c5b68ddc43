// Properties of the analysis on every kind of trace augur has (seed text traces, synthetic
// measured and predicted runs, simulated schedules and generated collectives):
//   - the optimistic limit is never above the run time: the path and the load are made of
//     pieces no longer than the run spent on them;
//   - halving the compute on the critical path shortens the re-simulated run by no more than the
//     bound allows: the tuned run is never faster than the tuned limit known beforehand.
#include <gtest/gtest.h>

#include <filesystem>

#include <unistd.h>

#include "analyze/analysis.hpp"
#include "analyze/whatif.hpp"
#include "model/machines.hpp"
#include "sim/network/loggops.hpp"
#include "sim/program/generators.hpp"
#include "sim/program/replay.hpp"
#include "sim/program/schedule.hpp"
#include "trace/read_any.hpp"
#include "trace/synthetic.hpp"

using namespace augur;

namespace {

struct Case {
  std::string name;
  trace::Trace trace;
};

trace::Trace synthetic(const std::string& name, trace::TraceMode mode, int ranks, double scale) {
  // A directory per process: ctest runs this file's tests side by side, and one removing the
  // trace another is reading made them fail now and then.
  const auto dir = std::filesystem::path(testing::TempDir()) / ("analyze-" + name + "-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  trace::write_synthetic_trace(dir, {ranks, 4000, mode, 7, scale});
  auto t = trace::read_trace(dir);
  std::filesystem::remove_all(dir);
  return t;
}

const model::Model& generic() {
  static const auto m = model::load_machine("generic");
  return m;
}

template <typename Net>
trace::Trace simulated(const sim::Program& p, bool expand = false) {
  sim::Options options;
  options.expand_collectives = expand;
  const auto s = analyze::make_setup([] { return std::make_unique<Net>(generic(), model::Bound::avg); }, nullptr, options);
  return analyze::resimulate(p, s).trace;
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const auto* f : {"cmptrace_measured.txt", "cmptrace_predicted.txt"})
    out.push_back({f, trace::read_trace(AUGUR_TEST_DATA "/trace/" + std::string(f))});
  out.push_back({"synthetic measured", synthetic("measured", trace::TraceMode::measured, 6, 1.0)});
  out.push_back({"synthetic predicted", synthetic("predicted", trace::TraceMode::predicted, 8, 1.5)});
  const auto ring = sim::parse_schedule(
      "ranks 6\nranks 0..2 { repeat 4 { compute 10us sendrecv rank+1 rank-1 4KiB allreduce 8 } }\n"
      "ranks 3..5 { repeat 4 { compute 30us sendrecv rank+1 rank-1 4KiB allreduce 8 } }\n", "ring");
  out.push_back({"schedule ring", simulated<sim::ModelNetwork>(*ring)});
  const auto gen = sim::generate("allreduce", {"p=8", "bytes=1KiB", "iterations=3", "compute=0.0001"});
  out.push_back({"generated allreduce", simulated<sim::LogGOPSNetwork>(*gen.program, true)});
  return out;
}

}  // namespace

TEST(AnalyzeProperties, OptimisticLimitIsNeverAboveTheRunTime) {
  const sim::ModelNetwork net(generic(), model::Bound::avg);
  for (const auto& c : cases()) {
    const auto a = analyze::analyze_trace(c.trace, analyze::MessageCosts(&net));
    EXPECT_GT(a.path.length, 0) << c.name;
    EXPECT_LE(a.advice.limit, a.path.run_time * (1 + 1e-12)) << c.name;
    EXPECT_LE(a.load.even_spread, a.load.busiest_rank_load * (1 + 1e-12)) << c.name;
    double sum = 0;
    for (const auto& s : a.path.segments) sum += s.length;
    EXPECT_NEAR(sum, a.path.length, 1e-9 * a.path.length) << c.name;
  }
}

TEST(AnalyzeProperties, HalvingTheCriticalPathsComputeSavesNoMoreThanTheBoundAllows) {
  const auto setup = analyze::make_setup([] { return std::make_unique<sim::ModelNetwork>(generic(), model::Bound::avg); });
  for (const auto& c : cases()) {
    const auto program = sim::replay_program(c.trace).program;
    const auto base = analyze::resimulate(*program, setup);
    const analyze::GrainIndex grains(base.trace);
    const auto path = analyze::analyze_trace(base.trace, setup.costs()).path;
    const auto w = analyze::what_if(*program, base, grains, analyze::scale_critical_path(path, grains, 0.5), setup);
    EXPECT_LE(w.bound, w.baseline * (1 + 1e-12)) << c.name;
    EXPECT_GE(w.tuned, w.bound * (1 - 1e-12)) << c.name << ": saved " << w.baseline - w.tuned << " s, the bound allows "
                                              << w.baseline - w.bound << " s";
  }
}
