// The sensitivity sweep (src/analyze/sensitivity.cpp) against the simulator run directly: every
// sampled point is the run with that parameter scaled, the tolerance is what a plain bisection
// through re-simulation finds, and on seed 004's worked example the slopes are what the critical
// path says (the latency slope is the number of messages on it, the compute slope its compute).
#include <gtest/gtest.h>

#include <cmath>

#include "analyze/analysis.hpp"
#include "analyze/resimulate.hpp"
#include "analyze/sensitivity.hpp"
#include "analyze/sensitivity_report.hpp"
#include "sim/kernel/kernel.hpp"
#include "sim/network/loggops.hpp"
#include "sim/network/scaling.hpp"
#include "sim/program/generators.hpp"
#include "seed_dag.hpp"
#include "sim_program.hpp"

using namespace augur;
using namespace augur::sim;
using augur_test::program;
using augur_test::seed_dag;

namespace {


// The simulator on LogGOPS `p`, with one parameter scaled the way `augur sim --scale` does.
analyze::Simulator loggops_simulator(const Program& prog, LogGOPSParams p) {
  analyze::Simulator s;
  s.time = [&prog, p](const analyze::RunSpec& spec) {
    Options o;
    LogGOPSParams q = p;
    if (spec.knob == "compute") o.compute_scale = spec.factor;
    else if (!spec.knob.empty()) q = scaled(q, spec.knob, spec.factor);
    if (spec.noise)
      o.compute_delay = [n = spec.noise, seed = spec.seed](int r, std::uint64_t k) { return n->delay(seed, r, k); };
    return simulate(prog, LogGOPSNetwork(q), o).predicted;
  };
  return s;
}

std::vector<Knob> with_compute(std::vector<Knob> k) {
  k.push_back(compute_knob());
  return k;
}

double direct(const FlatProgram& prog, LogGOPSParams p, const std::string& knob, double factor) {
  Options o;
  if (knob == "L") p.L *= factor;
  if (knob == "o") p.o *= factor;
  if (knob == "G") p.G *= factor;
  if (knob == "compute") {
    // A program whose grains are the factor longer: what --compute-scale does to a trace.
    o.compute_scale = 1;
    FlatProgram scaled_prog(prog.nranks());
    for (int r = 0; r < prog.nranks(); ++r) {
      auto body = prog.body_of(r);
      std::vector<Op> ops(body.begin(), body.end());
      for (auto& op : ops)
        if (op.kind == OpKind::compute) op.value *= factor;
      scaled_prog.assign(r, r, scaled_prog.add_body(ops));
    }
    return simulate(scaled_prog, LogGOPSNetwork(p), o).predicted;
  }
  return simulate(prog, LogGOPSNetwork(p), o).predicted;
}

}  // namespace

TEST(Sensitivity, EverySampledPointIsTheRunWithThatParameterScaled) {
  const auto prog = seed_dag();
  const LogGOPSParams p{.L = 1, .o = 0.5, .g = 0, .G = 0.01, .O = 0};
  analyze::SensitivityOptions o;
  o.threads = 2;
  const auto s = analyze::sensitivity(loggops_simulator(prog, p), with_compute(loggops_knobs(p)), o);
  ASSERT_EQ(s.parameters.size(), 4u);  // L, o, G, compute
  EXPECT_NEAR(s.baseline, direct(prog, p, "", 1), 1e-9);
  for (const auto& par : s.parameters) {
    ASSERT_EQ(par.points.size(), o.factors.size());
    for (const auto& pt : par.points)
      EXPECT_NEAR(pt.time, direct(prog, p, par.knob.name, pt.factor), 1e-9 * pt.time) << par.knob.name << " x" << pt.factor;
  }
}

TEST(Sensitivity, SlopesAreTheCriticalPathsLatenciesAndCompute) {
  const auto prog = seed_dag();
  LogGOPSParams p;
  p.L = 1;
  const auto s = analyze::sensitivity(loggops_simulator(prog, p), with_compute(loggops_knobs(p)), {});
  const auto setup = analyze::make_setup([p] { return std::make_unique<LogGOPSNetwork>(p); });
  const auto a = analyze::analyze_trace(analyze::resimulate(prog, setup).trace, setup.costs());
  int messages = 0;
  double compute = 0;
  for (const auto& seg : a.path.segments) {
    messages += seg.kind == analyze::SegmentKind::message;
    if (seg.kind == analyze::SegmentKind::compute) compute += seg.length;
  }
  ASSERT_EQ(s.parameters[0].knob.name, "L");
  EXPECT_EQ(messages, 3);
  EXPECT_NEAR(s.parameters[0].slope.per_unit, messages, 1e-9);
  EXPECT_TRUE(s.parameters[0].slope.linear);
  ASSERT_EQ(s.parameters[1].knob.name, "compute");
  EXPECT_NEAR(s.parameters[1].slope.right, compute, 1e-9 * compute);
  EXPECT_NEAR(s.parameters[1].slope.share, compute / s.baseline, 1e-9);
}

// A pipeline on LogGOPS with LogGOPSim's terms: the latency slope is the count of messages on the
// path the analysis finds, while that path does not change.
TEST(Sensitivity, PipelineLatencySlopeCountsThePathsMessages) {
  const auto generated = generate("pipeline", {"p=4", "items=5", "bytes=1KiB", "compute=100us"});
  const auto& prog = *generated.program;
  const LogGOPSParams p{.L = 3e-6, .o = 1.5e-6, .g = 1e-6, .G = 6e-9, .O = 0};
  analyze::SensitivityOptions o;
  o.growths = {0.01};
  const auto s = analyze::sensitivity(loggops_simulator(prog, p), loggops_knobs(p), o);
  const auto setup = analyze::make_setup([p] { return std::make_unique<LogGOPSNetwork>(p); });
  const auto a = analyze::analyze_trace(analyze::resimulate(prog, setup).trace, setup.costs());
  int messages = 0;
  for (const auto& seg : a.path.segments) messages += seg.kind == analyze::SegmentKind::message;
  ASSERT_EQ(s.parameters[0].knob.name, "L");
  EXPECT_GT(messages, 0);
  EXPECT_NEAR(s.parameters[0].slope.per_unit, messages, 1e-9);
}

TEST(Sensitivity, ToleranceIsWhatABisectionThroughReSimulationFinds) {
  const auto prog = seed_dag();
  LogGOPSParams p;
  p.L = 1;
  p.o = 0.25;
  analyze::SensitivityOptions o;
  const auto sim = loggops_simulator(prog, p);
  const auto s = analyze::sensitivity(sim, loggops_knobs(p), o);
  const double t0 = s.baseline;
  for (const auto& par : s.parameters) {
    for (const auto& t : par.tolerances) {
      const double target = t0 * (1 + t.growth);
      double lo = 1, hi = 2;
      while (sim.time({par.knob.name, hi}) < target) lo = hi, hi *= 2;
      while (hi - lo > 1e-12 * hi) {
        const double mid = (lo + hi) / 2;
        (sim.time({par.knob.name, mid}) >= target ? hi : lo) = mid;
      }
      ASSERT_TRUE(std::isfinite(t.factor));
      EXPECT_NEAR(t.factor, hi, 1e-6 * hi) << par.knob.name << " +" << t.growth;
      EXPECT_GE(t.time, target);
    }
  }
}

TEST(Sensitivity, ConstantNoiseAddsItsDelayToEveryGrainOnThePath) {
  const auto prog = seed_dag();
  const LogGOPSParams p{};
  const auto noise = analyze::parse_noise("const:2s");
  analyze::SensitivityOptions o;
  o.noise = &noise;
  o.seeds = 3;
  const auto s = analyze::sensitivity(loggops_simulator(prog, p), {}, o);
  ASSERT_TRUE(s.noise);
  for (double t : s.noise->times) EXPECT_DOUBLE_EQ(t, 170 + 4 * 2);
  EXPECT_DOUBLE_EQ(s.noise->sd, 0);
}

TEST(Sensitivity, RandomNoiseIsTheSameForASeedAndDiffersBetweenSeeds) {
  const auto prog = seed_dag();
  const auto noise = analyze::parse_noise("exp:5s");
  analyze::SensitivityOptions o;
  o.noise = &noise;
  o.seeds = 4;
  o.threads = 2;
  const auto a = analyze::sensitivity(loggops_simulator(prog, {}), {}, o);
  o.threads = 1;
  const auto b = analyze::sensitivity(loggops_simulator(prog, {}), {}, o);
  EXPECT_EQ(a.noise->times, b.noise->times);
  EXPECT_NE(a.noise->times[0], a.noise->times[1]);
  for (double t : a.noise->times) EXPECT_GT(t, 170);
  EXPECT_GT(a.noise->sd, 0);
}

TEST(Sensitivity, FactorsAndNoiseAreReadOrRefusedWithTheirReason) {
  EXPECT_EQ(analyze::parse_factors("2,0.5,1"), (std::vector<double>{0.5, 1, 2}));
  const auto r = analyze::parse_factors("0.125..16:8");
  ASSERT_EQ(r.size(), 8u);
  EXPECT_DOUBLE_EQ(r.front(), 0.125);
  EXPECT_DOUBLE_EQ(r.back(), 16);
  EXPECT_NEAR(r[1] / r[0], 2, 1e-12);
  EXPECT_THROW(analyze::parse_factors("0,1"), std::invalid_argument);
  EXPECT_THROW(analyze::parse_factors("1..0.5:4"), std::invalid_argument);
  EXPECT_THROW(analyze::parse_factors("1..2"), std::invalid_argument);
  EXPECT_THROW(analyze::parse_noise("gamma:1s"), std::invalid_argument);
  EXPECT_THROW(analyze::parse_noise("uniform:2s..1s"), std::invalid_argument);
  EXPECT_THROW(analyze::parse_noise("exp:fast"), std::invalid_argument);
  EXPECT_DOUBLE_EQ(analyze::parse_noise("uniform:1us..3us").b, 3e-6);
}

TEST(Sensitivity, ScalingNamesTheParameterItLacks) {
  LogGOPSParams p;
  p.L = 1;
  EXPECT_THROW(scaled(p, "bandwidth", 2), std::invalid_argument);
  EXPECT_THROW(scaled(p, "L", 0), std::invalid_argument);
  EXPECT_THROW(scaled(p, "L", -1), std::invalid_argument);
  EXPECT_DOUBLE_EQ(scaled(p, "L", 3).L, 3);
  const auto m = augur_test::toy();
  EXPECT_THROW(scaled(m, "law:nothing", 2), std::invalid_argument);
  const auto twice = scaled(m, "law:send", 2);
  EXPECT_DOUBLE_EQ(twice.at("send").regimes[0].evaluate(2, 1000, model::Bound::avg),
                   2 * m.at("send").regimes[0].evaluate(2, 1000, model::Bound::avg));
}

TEST(Sensitivity, PlottedCurveRunsThroughTolerancesPastTheLastSample) {
  analyze::Sensitivity s;
  s.baseline = 2e-3;
  analyze::ParameterSensitivity p;
  p.knob = {"L", "latency", 1e-5, "s"};
  p.points = {{0.5, 5e-6, 1.9e-3}, {1, 1e-5, 2e-3}, {16, 1.6e-4, 2e-3}};
  analyze::Tolerance hidden;  // the run grows by 1% only at x20.5, past the last sample
  hidden.growth = 0.01, hidden.factor = 20.5, hidden.time = 2.02e-3;
  analyze::Tolerance sampled;  // found at a sampled factor: drawn once
  sampled.growth = 0.02, sampled.factor = 16, sampled.time = 2e-3;
  analyze::Tolerance never;  // not reached: no point
  never.growth = 0.05;
  p.tolerances = {hidden, sampled, never};
  s.parameters.push_back(p);
  const auto plots = analyze::sensitivity_plots(s, "sensitivity", "halo");
  ASSERT_EQ(plots.size(), 2u);
  const auto& curve = plots[1].curves.at(0);
  EXPECT_EQ(curve.x, (std::vector<double>{0.5, 1, 16, 20.5}));
  ASSERT_EQ(curve.y.size(), 4u);
  EXPECT_DOUBLE_EQ(curve.y[3], 2.02);
  const auto& ratio = plots[0].curves.at(0);
  EXPECT_EQ(ratio.x, curve.x);
  EXPECT_DOUBLE_EQ(ratio.y[3], 1.01);
  EXPECT_EQ(plots[1].marks.size(), 2u);
}
