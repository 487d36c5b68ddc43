// `augur analyze`: what tuning can still gain (seed 004). The critical path and critical load of
// a run bound every tuning; what-ifs re-simulate the tuned program (src/sim) and set its new run
// time beside that bound; the anomaly sweep finds grains whose reduction makes the run longer.
#include <fstream>
#include <iostream>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "analyze/analysis.hpp"
#include "analyze/anomalies.hpp"
#include "analyze/html.hpp"
#include "analyze/report.hpp"
#include "analyze/whatif.hpp"
#include "cli/commands.hpp"
#include "cli/input_files.hpp"
#include "cli/sim_setup.hpp"
#include "cli/trace_input.hpp"
#include "util/numbers.hpp"
#include "sim/kernel/kernel.hpp"
#include "sim/program/replay.hpp"
#include "sim/program/schedule.hpp"

namespace augur::cli {
namespace fs = std::filesystem;
namespace {

struct AnalyzeRequest : NetworkRequest {
  std::string input;
  std::string baseline_machine;
  std::string other_machine;
  std::string collectives = "model";
  std::vector<std::string> scale_grain, scale_compute, scale_bytes;
  double scale_path = 0;
  bool anomalies = false;
  double shrink = 0.5;
  std::size_t max_runs = 256;
  std::size_t top = 5;
  bool json = false;
  std::string html;
};

bool wants_simulation(const AnalyzeRequest& r) {
  return !r.scale_grain.empty() || !r.scale_compute.empty() || !r.scale_bytes.empty() || r.scale_path > 0 ||
         !r.other_machine.empty() || r.anomalies;
}

// The run to analyse and the program that re-simulates it.
struct Input {
  trace::Trace trace;
  std::unique_ptr<sim::FlatProgram> program;
  bool schedule = false;
};

Input open_input(const AnalyzeRequest& r) {
  const fs::path path = r.input;
  Input in;
  const auto kind = trace_or_schedule(path, "augur analyze");
  // A GOAL schedule is analysed as its run (open_trace); its what-ifs would re-simulate that run
  // as a replayed trace, on a network other than the graph's own, so they are refused.
  if (kind == ProgramFile::goal && wants_simulation(r))
    throw UsageError(fmt::format("{}: a GOAL schedule, whose what-ifs augur analyze does not re-simulate: run the "
                                 "tuned schedule with augur sim instead", path.string()));
  if (kind != ProgramFile::schedule) {
    in.trace = open_trace(path, "augur analyze", trace_or_schedule_expected());
    in.program = sim::replay_program(in.trace).program;
    return in;
  }
  in.program = sim::read_schedule_file(path.string());
  in.schedule = true;
  return in;
}

analyze::Tuning tuning_of(const AnalyzeRequest& r, int nranks) {
  analyze::Tuning t;
  for (const auto& g : r.scale_grain) t.grains.insert(analyze::parse_factor("--scale-grain", g));
  for (const auto& c : r.scale_compute) {
    auto [rank, factor] = analyze::parse_factor("--scale-compute", c);
    const long n = util::parse_integer(rank).value_or(-1);
    if (n < 0 || n >= nranks)
      throw UsageError(fmt::format("--scale-compute '{}': '{}' is not a rank of the run (0 to {})", c, rank, nranks - 1));
    t.ranks[n] = factor;
  }
  for (const auto& b : r.scale_bytes) t.bytes.insert(analyze::parse_factor("--scale-bytes", b));
  return t;
}

// Every grain a tuning names must be a phase of the trace or RANK:K of an existing grain.
void check_grains(const analyze::Tuning& t, const analyze::GrainIndex& g, int nranks) {
  for (const auto& [name, factor] : t.grains) {
    if (std::find(g.phases().begin(), g.phases().end(), name) != g.phases().end()) continue;
    int rank = -1;
    unsigned k = 0;
    char tail = 0;
    if (std::sscanf(name.c_str(), "%d:%u%c", &rank, &k, &tail) == 2 && rank >= 0 && rank < nranks && k < g.count(rank))
      continue;
    std::string phases;
    for (const auto& p : g.phases()) phases += (phases.empty() ? "" : ", ") + p;
    throw UsageError(fmt::format("--scale-grain '{}': no phase or grain RANK:K of that name (phases: {})", name,
                                 phases.empty() ? "none in this trace" : phases));
  }
}

// Every call a tuning scales must be `all` or a call the run made.
void check_calls(const analyze::Tuning& t, const trace::Trace& run) {
  std::set<std::string> calls;
  for (const auto& rank : run.ranks)
    for (const auto& st : rank.states)
      if (st.kind == trace::StateKind::mpi) calls.insert(run.names[st.op]);
  for (const auto& [call, factor] : t.bytes) {
    if (call == "all" || calls.contains(call)) continue;
    std::string known;
    for (const auto& c : calls) known += (known.empty() ? "" : ", ") + c;
    throw UsageError(fmt::format("--scale-bytes '{}': the run made no call of that name (it made: {})", call, known));
  }
}

struct Outputs {
  std::vector<analyze::WhatIf> what_ifs;
  std::optional<analyze::Sweep> sweep;
};

sim::Options options_for(const AnalyzeRequest& r) {
  if (r.collectives != "model" && r.collectives != "expand") throw UsageError("--collectives must be model or expand");
  sim::Options o;
  o.expand_collectives = r.collectives == "expand";
  return o;
}

Outputs what_ifs(const AnalyzeRequest& r, const Input& in, const analyze::SimSetup& setup,
                 const analyze::SimulatedRun& baseline) {
  Outputs out;
  analyze::GrainIndex grains(baseline.trace);
  if (!in.schedule) grains.borrow_phases(analyze::GrainIndex(in.trace));
  const auto tuning = tuning_of(r, in.program->nranks());
  check_grains(tuning, grains, in.program->nranks());
  check_calls(tuning, baseline.trace);
  if (!tuning.empty()) out.what_ifs.push_back(analyze::what_if(*in.program, baseline, grains, tuning, setup));
  if (r.scale_path > 0) {
    const auto path = analyze::analyze_trace(baseline.trace, setup.costs()).path;
    auto w = analyze::what_if(*in.program, baseline, grains, analyze::scale_critical_path(path, grains, r.scale_path), setup);
    w.description = fmt::format("critical path compute x{:g}", r.scale_path);
    out.what_ifs.push_back(std::move(w));
  }
  if (!r.other_machine.empty()) {
    const auto model = load_machine_input(r.other_machine, "augur analyze --machine");
    const int ranks = in.program->nranks();
    const auto other = make_network(r, model, ranks);
    const auto setup2 =
        analyze::make_setup([&] { return make_network(r, model, ranks).network; }, other.machine.get(), setup.options);
    out.what_ifs.push_back(analyze::what_if_machine(*in.program, baseline, setup2, r.other_machine));
  }
  if (r.anomalies) out.sweep = analyze::sweep_anomalies(*in.program, baseline, grains, setup, r.shrink, r.max_runs);
  return out;
}

void print(const AnalyzeRequest& r, const analyze::Analysis& a, const trace::Trace& t, const Outputs& o) {
  if (r.json) {
    auto j = analyze::to_json(a, t);
    j["what_ifs"] = nlohmann::json::array();
    for (const auto& w : o.what_ifs) j["what_ifs"].push_back(analyze::to_json(w));
    if (o.sweep) j["anomaly_sweep"] = analyze::to_json(*o.sweep);
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::cout << analyze::format_analysis(a, t, r.top);
  for (const auto& w : o.what_ifs) std::cout << analyze::format_what_if(w);
  if (o.sweep) std::cout << analyze::format_sweep(*o.sweep);
}

void write_html(const AnalyzeRequest& r, const trace::Trace& t, const analyze::Analysis& a,
                const analyze::SimSetup& setup) {
  std::ofstream out(r.html);
  if (!out) throw UsageError(r.html + ": cannot write the HTML report there");
  analyze::write_analysis_html(t, a, setup.costs(), {"augur analyze " + r.input}, out);
  if (!r.json) std::cout << "HTML report: " << r.html << "\n";
}

void check(const AnalyzeRequest& r) {
  parse_bound(r.bound);
  if (!(r.shrink > 0 && r.shrink < 1)) throw UsageError("--shrink must be between 0 and 1");
  if (r.scale_path < 0 || r.scale_path > 1) throw UsageError("--scale-path must be between 0 and 1");
}

void run(const AnalyzeRequest& r) {
  check(r);
  auto in = open_input(r);
  const auto model = load_machine_input(machine_for(r.baseline_machine, in.trace.header.machine),
                                        "augur analyze --baseline-machine");
  const int ranks = in.program ? in.program->nranks() : static_cast<int>(in.trace.ranks.size());
  const auto chosen = make_network(r, model, ranks);
  const auto setup =
      analyze::make_setup([&] { return make_network(r, model, ranks).network; }, chosen.machine.get(), options_for(r));
  std::optional<analyze::SimulatedRun> baseline;
  if (in.schedule || wants_simulation(r)) baseline = analyze::resimulate(*in.program, setup);
  if (in.schedule) in.trace = baseline->trace;
  const auto analysis = analyze::analyze_trace(in.trace, setup.costs());
  const auto outputs = baseline ? what_ifs(r, in, setup, *baseline) : Outputs{};
  print(r, analysis, in.trace, outputs);
  if (!r.html.empty()) write_html(r, in.trace, analysis, setup);
  fail_if_damaged({&in.trace});
}

}  // namespace

void add_analyze_command(CLI::App& app) {
  auto r = std::make_shared<AnalyzeRequest>();
  auto* cmd = app.add_subcommand("analyze", "What tuning can still gain: critical path, critical load, what-ifs, anomalies");
  cmd->footer(
      "The critical path (grains, MPI work and undisturbed messages through the run's dependencies)\n"
      "and the critical load (busiest rank, or link with --network topology) bound every tuning;\n"
      "their maximum is the optimistic limit, and the gap to it points to event, grain, parallelism\n"
      "or hardware tuning (docs/analyze.md). What-ifs re-simulate the program and print the new run\n"
      "time beside the bound. Grains are named by a phase of the trace or as RANK:K (the K-th compute\n"
      "grain of RANK).\n"
      "Examples:\n"
      "  augur analyze T                                      (a trace of augur run or augur sim)\n"
      "  augur analyze T --scale-grain solve=0.5 --scale-compute 3=0.5 --scale-bytes allreduce=0.5\n"
      "  augur analyze T --scale-path 0.5                     (halve the compute on the critical path)\n"
      "  augur analyze T --machine sp2-mpl                    (the same program on another machine)\n"
      "  augur analyze farm.sched --network topology --topology bus:4 --anomalies\n");
  cmd->add_option("input", r->input, "trace directory (or seed text trace), or schedule file")->required();
  cmd->add_option("--baseline-machine", r->baseline_machine,
                  "machine that prices the run's messages (default: the trace's, else generic)");
  add_network_options(*cmd, *r);
  cmd->add_option("--collectives", r->collectives, "model (priced whole) or expand (as messages)")->capture_default_str();
  cmd->add_option("--scale-grain", r->scale_grain, "what-if: NAME=FACTOR, a phase or RANK:K grain");
  cmd->add_option("--scale-compute", r->scale_compute, "what-if: RANK=FACTOR, every compute grain of a rank");
  cmd->add_option("--scale-bytes", r->scale_bytes, "what-if: CALL=FACTOR (send, isend1, bcast, … or all)");
  cmd->add_option("--scale-path", r->scale_path, "what-if: scale the compute on the critical path by this factor");
  cmd->add_option("-m,--machine", r->other_machine, "what-if: re-simulate on this machine (built-in or model file)");
  cmd->add_flag("--anomalies", r->anomalies, "shrink each grain in turn and report those that lengthen the run");
  cmd->add_option("--shrink", r->shrink, "factor of the anomaly sweep")->capture_default_str();
  cmd->add_option("--max-runs", r->max_runs, "most re-simulations of the anomaly sweep")->capture_default_str();
  cmd->add_option("--top", r->top, "how many of the path's longest segments to list")->capture_default_str();
  cmd->add_flag("--json", r->json, "print the analysis as JSON with exact seconds");
  cmd->add_option("--html", r->html, "also write an HTML report: the timeline with the critical path, and utilisation");
  cmd->callback([r] { with_usage_errors([&] { run(*r); }); });
}

}  // namespace augur::cli
