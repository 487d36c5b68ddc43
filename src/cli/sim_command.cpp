// `augur sim`: discrete-event simulation of a trace, a schedule or a generated collective on a
// modelled machine (src/sim). Its report is `augur run`'s, so scripts read both alike.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "app/app_program_json.hpp"
#include "cli/commands.hpp"
#include "cli/input_files.hpp"
#include "cli/named_numbers.hpp"
#include "cli/program_input.hpp"
#include "cli/sim_setup.hpp"
#include "cli/trace_input.hpp"
#include "model/machines.hpp"
#include "report/link_table.hpp"
#include "report/utilisation_strips.hpp"
#include "revprof/report.hpp"
#include "sim/program/app_program.hpp"
#include "sim/program/generators.hpp"
#include "sim/program/goal.hpp"
#include "sim/kernel/kernel.hpp"
#include "sim/program/replay.hpp"
#include "sim/report/report.hpp"
#include "sim/program/schedule.hpp"
#include "sim/network/topologies.hpp"
#include "sim/report/run_utilisation.hpp"
#include "trace/utilisation.hpp"

namespace augur::cli {
namespace fs = std::filesystem;
namespace {

struct SimRequest : NetworkRequest, ProgramRequest {
  std::string machine;
  std::string collectives;
  std::string algorithms;
  std::string write_schedule;
  std::string trace_out;
  std::string report;
  std::string utilisation;
  std::string html;
  int bins = 20;
  bool no_bounds = false;             // with --app: no runs at the laws' low and high bounds
  bool json = false;
  model::RankRows shown = model::RankRows::fit_screen;
  bool no_progress = false;
  std::vector<std::string> scale;     // NAME=FACTOR: a machine parameter scaled
};

using Input = ProgramInput;

// --scale NAME=FACTOR: parameters of the machine scaled (sim/network/scaling.hpp).
std::vector<Scale> scales_of(const SimRequest& r) {
  std::vector<Scale> out;
  for (const auto& text : r.scale) out.push_back(parse_scale(text));
  return out;
}

Input open_input(const SimRequest& r) {
  if (r.no_bounds && r.app.empty()) throw UsageError("--no-bounds goes with --app");
  return open_program(r, "augur sim", r.bound);
}

bool ends_with(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// The program as a schedule, or as GOAL when the file is named .goal; written whole or not at all.
void write_program(const SimRequest& r, const Input& in) {
  std::ostringstream text;
  if (ends_with(r.write_schedule, ".goal")) {
    auto algorithms = in.algorithms;
    if (!r.algorithms.empty())
      for (auto& [c, a] : sim::parse_algorithm_choice(r.algorithms)) algorithms[c] = a;
    if (in.goal) sim::write_goal(*in.goal, text);
    else sim::write_goal(*in.program, algorithms, text);
  } else {
    if (in.goal) throw UsageError("a GOAL schedule is written as GOAL only: name the --write-schedule file *.goal");
    text << sim::write_schedule(*in.program);
  }
  std::ofstream out(r.write_schedule, std::ios::binary);
  if (!(out << text.view())) throw UsageError(r.write_schedule + ": cannot write the schedule there");
}

int rank_count(const Input& in) { return in.goal ? in.goal->nranks() : in.program->nranks(); }

std::uint64_t operation_count(const sim::FlatProgram& p) {
  std::uint64_t total = 0;
  for (int r = 0; r < p.nranks(); ++r) total += p.body_of(r).size();
  return total;
}

// A progress bar with an estimate of the time left, on a terminal only, for runs past a second.
std::function<void(const sim::Progress&)> progress_bar(std::uint64_t total_operations) {
  auto start = std::chrono::steady_clock::now();
  return [=](const sim::Progress& p) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed < 1) return;
    const double done = std::min(0.99, total_operations ? double(p.operations) / double(total_operations) : 0.0);
    const int width = 30, filled = static_cast<int>(done * width);
    const double eta = done > 0 ? elapsed * (1 - done) / done : 0;
    std::fprintf(stderr, "\r[%s%s] %3.0f%%  %.3g M events  %d/%d ranks done  ETA %.0f s ",
                 std::string(filled, '=').c_str(), std::string(width - filled, ' ').c_str(), 100 * done,
                 double(p.events) / 1e6, p.finished_ranks, p.ranks, eta);
  };
}

nlohmann::json run_settings(const SimRequest& r, const Input& in, const std::string& machine,
                            const sim::Network& net, const sim::Options& options) {
  nlohmann::json run = {{"machine", model::load_machine(machine).machine.name},
                        {"bound", r.bound},
                        {"compute", in.kind == "trace" ? "replayed" : in.kind},
                        {"network", net.describe()},
                        {"input", in.source},
                        {"simulated", true}};
  if (in.kind == "trace") run["compute_scale_from"] = fmt::format("{:.4g} (given with --compute-scale)", r.compute_scale);
  if (in.kind == "trace") run["match"] = r.match;
  if (in.kind == "app") {
    run["ranks"] = r.ranks;
    run["parameters"] = parse_settings(r.settings);
    if (r.compute_scale != 1) run["compute_scale"] = r.compute_scale;
  }
  if (!options.algorithms.empty() || options.expand_collectives) {
    nlohmann::json algorithms = nlohmann::json::object();
    for (const auto& [c, a] : options.algorithms) algorithms[c] = a;
    run["algorithms"] = algorithms;
  }
  if (const auto* model_net = dynamic_cast<const sim::ModelNetwork*>(&net)) {
    run["substitutions"] = model_net->rules().substitutions();
    // What priced the calls the model has no law for, as `augur run`'s report names them.
    run["stand_ins_used"] = revprof::stand_ins_to_json(model_net->rules().stand_ins_used());
  }
  if (net.places_ranks()) {  // a machine of nodes: where the ranks ran (docs/nodes.md)
    const int ranks = in.program ? in.program->nranks() : in.goal ? in.goal->nranks() : 0;
    run["placement"] = make_placement(r.placement, ranks).describe();
  }
  if (!in.skipped.empty()) run["skipped_calls"] = in.skipped;
  if (in.never_completed > 0) run["requests_never_completed"] = in.never_completed;
  return run;
}

void print_notes(const nlohmann::json& report) {
  const auto& run = report.at("run");
  if (run.contains("stand_ins_used")) std::cout << revprof::format_stand_ins(run["stand_ins_used"]);
  if (run.contains("skipped_calls")) {
    std::cout << "\nCalls in the trace the simulator does not model (left out):\n";
    for (const auto& [name, n] : run["skipped_calls"].items()) std::cout << "  " << name << " x" << n << "\n";
  }
  if (run.contains("requests_never_completed"))
    std::cout << fmt::format("\nRequests the trace never completes: {} (no wait in it names them; they stay "
                             "outstanding to the end)\n", run["requests_never_completed"].get<long>());
  for (const auto& w : report.at("warnings")) std::cout << "\nWarning: " << w.get<std::string>() << "\n";
  const auto& s = report.at("simulation");
  if (const auto replayed = s.at("wildcard_receives_replayed").get<std::uint64_t>(); replayed > 0)
    std::cout << fmt::format("\nWildcard receives: {} matched in simulated order, {} of them with another sender than "
                             "in the run (--match recorded keeps the run's).\n",
                             replayed, s.at("matches_changed").get<std::uint64_t>());
  std::cout << fmt::format("\nSimulated {} events ({} messages) in {:.3g} s: {:.3g} M events/s\n",
                           s.at("events").get<std::uint64_t>(), s.at("messages").get<std::uint64_t>(),
                           s.at("wall_seconds").get<double>(), s.at("events_per_second").get<double>() / 1e6);
}

void print_utilisation(const trace::Utilisation& u, const std::string& file) {
  std::cout << fmt::format("\nUtilisation over time ({} intervals of {:.3g} s; C computing, M in MPI, lower case "
                           "busy under half the time, . idle; all ranks{} in {}):\n",
                           u.bins(), u.bin_seconds, u.links.empty() ? "" : " and links", file)
            << trace::utilisation_text(u, 16);
  if (!u.links.empty()) std::cout << "\n" << report::busiest_links_table(u, 8);
}

// The timeline with utilisation strips: finer intervals than the CSV's, as a page has the room.
void write_html(const SimRequest& r, const trace::Trace& t, const sim::Transfers* transfers, const std::string& source) {
  std::ofstream out(r.html);
  if (!out) throw UsageError(r.html + ": cannot write the HTML timeline there");
  report::write_utilisation_html(t, sim::run_utilisation(t, transfers, 200), "augur sim " + source,
                                 16, out);
}

// Whether some law of the program has bounds apart from its value (a fitted law's errors).
bool has_bounds(const app::AppProgram& program) {
  bool any = false;
  app::for_each_law(program, [&](const app::Law& law, const std::string&) {
    any = any || (!law.low.empty() && law.low != law.expr) || (!law.high.empty() && law.high != law.expr);
  });
  return any;
}

// With --app at the default bound: the run again with every law at its low bound and with every
// law at its high one (their coefficients' errors), on the same machine and network, so the
// prediction comes with how far the laws' errors move it. Exact laws move nothing.
std::optional<nlohmann::json> law_bounds(const SimRequest& r, const Input& in, const model::Model& machine,
                                         sim::Options options, double predicted) {
  if (in.kind != "app" || r.no_bounds || parse_bound(r.bound) != model::Bound::avg) return std::nullopt;
  if (!has_bounds(*in.app_model->program)) return nlohmann::json{{"low", predicted}, {"high", predicted}};
  options.progress = nullptr;
  nlohmann::json bounds;
  for (const auto& [bound, key] : {std::pair{model::Bound::min, "low"}, {model::Bound::max, "high"}}) {
    auto settings = in.app_settings;
    settings.bound = bound;
    const auto program = sim::instantiate(*in.app_model, r.ranks, settings);
    const auto chosen = make_network(r, machine, r.ranks, scales_of(r));
    bounds[key] = sim::simulate(*program, *chosen.network, options).predicted;
  }
  return bounds;
}

void run(const SimRequest& r) {
  parse_bound(r.bound);
  if (r.match != "simulated" && r.match != "recorded") throw UsageError("--match must be simulated or recorded");
  if (!(r.compute_scale > 0)) throw UsageError("--compute-scale must be > 0");
  if (r.bins < 1 || r.bins > 100000) throw UsageError("--bins must be from 1 to 100000");
  auto in = open_input(r);
  const auto machine = machine_for(r.machine, in.trace_machine);
  const auto model = load_machine_input(machine, "augur sim --machine");
  if (!r.write_schedule.empty()) {
    write_program(r, in);
    if (r.inputs.empty() && r.generator.empty() && r.app.empty()) return;
  }
  const int ranks = in.program ? in.program->nranks() : in.goal ? in.goal->nranks() : 0;
  const auto chosen = make_network(r, model, ranks, scales_of(r));
  const auto& net = chosen.network;
  sim::Options options;
  options.algorithms = in.algorithms;
  if (!r.algorithms.empty())
    for (auto& [c, a] : sim::parse_algorithm_choice(r.algorithms)) options.algorithms[c] = a;
  options.expand_collectives = r.collectives.empty() ? !options.algorithms.empty() : r.collectives == "expand";
  for (const auto& sc : scales_of(r))
    if (sc.knob == "compute") options.compute_scale *= sc.factor;
  if (!r.collectives.empty() && r.collectives != "expand" && r.collectives != "model")
    throw UsageError("--collectives must be model or expand");
  const bool bar = !r.no_progress && isatty(STDERR_FILENO);
  if (bar) options.progress = progress_bar(in.goal ? in.goal->vertices().size() : operation_count(*in.program));
  std::unique_ptr<sim::TraceRecorder> recorder;
  const bool wants_utilisation = !r.utilisation.empty() || !r.html.empty();
  auto* transfers = net->transfers();
  if (wants_utilisation && transfers) transfers->record_usage();
  if (!r.trace_out.empty() || wants_utilisation)
    recorder = std::make_unique<sim::TraceRecorder>(
        rank_count(in), trace::TraceHeader{trace::TraceMode::simulated, model.machine.name, "seconds, simulated",
                                                 "augur sim " + in.source});
  const auto started = std::chrono::steady_clock::now();
  const auto result = in.goal ? sim::simulate(*in.goal, *net, options, recorder.get())
                              : sim::simulate(*in.program, *net, options, recorder.get());
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (bar) std::fprintf(stderr, "\r%*s\r", 100, "");
  auto report = sim::make_report(result, run_settings(r, in, machine, *net, options), wall);
  if (auto bounds = law_bounds(r, in, model, options, result.predicted)) report["predicted_law_bounds"] = *bounds;
  for (const auto& w : in.warnings) report["warnings"].push_back(w);
  std::optional<trace::Utilisation> used;
  if (!r.utilisation.empty()) {
    used = sim::run_utilisation(recorder->trace(), transfers, r.bins);
    std::ofstream(r.utilisation) << trace::utilisation_csv(*used);
    report["utilisation"] = trace::utilisation_json(*used);
  }
  if (!r.html.empty()) write_html(r, recorder->trace(), transfers, in.source);
  if (!r.trace_out.empty()) sim::write_native_trace(recorder->trace(), r.trace_out);
  if (!r.report.empty()) std::ofstream(r.report) << report.dump(2) << "\n";
  if (r.json) {
    std::cout << report.dump(2) << "\n";
    return;
  }
  std::cout << revprof::format_report(report, r.shown);
  print_notes(report);
  if (used) print_utilisation(*used, r.utilisation);
  if (!r.trace_out.empty()) std::cout << "\nTrace: " << r.trace_out << "\n";
  if (!r.html.empty()) std::cout << "\nTimeline: " << r.html << "\n";
}

}  // namespace

void add_sim_command(CLI::App& app) {
  auto r = std::make_shared<SimRequest>();
  auto* cmd = app.add_subcommand("sim", "Simulate a trace, a schedule or a collective algorithm on a modelled machine");
  cmd->footer(
      "Discrete-event simulation in global simulated time: messages are priced by the model's\n"
      "equations as in `augur run` (--network model) or by LogGOPS (--network loggops, from the\n"
      "model's pingpong and onetomany or given with --loggops) or as flows sharing the links of a\n"
      "machine's topology (--network topology --topology FILE or NAME:params; `augur machines` lists\n"
      "the generators, docs/machine-format.md the file; --sharing fair: max-min, rtt: SimGrid CM02's\n"
      "shares by inverse route latency, data after the latency), wildcard receives match in simulated\n"
      "order, and a program that cannot finish stops with the ranks and operations involved.\n"
      "Examples:\n"
      "  augur run --machine t3d --trace T -np 4 -- ./stencil && augur sim T    (replay: same prediction)\n"
      "  augur sim --machine sp2-mpl --compute-scale 2 T                         (another machine, slower nodes)\n"
      "  augur sim --machine sp2-mpl ring.sched                                  (docs/schedule-format.md)\n"
      "  augur sim --network loggops --loggops L=2500ns,o=1500ns,g=1000ns bcast.goal  (LogGOPSim's GOAL, docs/goal-format.md)\n"
      "  augur sim --generate bcast p=8 --write-schedule bcast.goal              (GOAL for LogGOPSim)\n"
      "  augur sim --machine sp2-mpl --network loggops --generate bcast algorithm=1m p=12 bytes=16\n"
      "  augur sim --network loggops --loggops L=2.5us,o=1.5us,g=1us,G=6ns --generate allreduce p=1048576\n"
      "  augur sim --generate barrier p=64 --write-schedule barrier.sched\n"
      "  augur sim --network loggops --generate allreduce algorithm=rabenseifner p=64 bytes=1MiB\n"
      "  augur sim --machine sp2-mpl --generate farm p=8 items=100 compute=2ms --utilisation farm.csv\n"
      "  augur sim --network topology --topology ring:8 --generate farm p=8 --utilisation farm.csv --html farm.html\n"
      "  augur sim --machine t3d --generate pipeline p=4 items=20 bytes=4KiB compute=50us\n"
      "  augur sim --network topology --topology fattree:4,3,bandwidth=10GB/s,latency=1us \\\n"
      "            --generate alltoall p=64 bytes=1MiB\n"
      "  augur sim --network topology --topology torus:8x8 --generate allreduce algorithm=ring p=64 bytes=8KiB\n"
      "  augur sim --network topology --topology torus:8x8 --sharing rtt --generate alltoall p=64 bytes=1MiB\n"
      "  augur sim --network topology --topology cluster.json ring.sched     (a machine file)\n"
      "An application model's program (its \"program\" section, docs/app-model-format.md; augur learn\n"
      "writes one from traces at a few counts) runs at any count; --set gives its parameters. The\n"
      "prediction comes with its low and high bounds, the run again with every law at its low and at\n"
      "its high bound (--no-bounds skips the two runs); --bound min or max runs only the one, with the\n"
      "model's bound:\n"
      "  augur sim --app examples/models/stencil-program.json --ranks 4096 --machine t3d --set n=4096\n"
      "  augur sim --app stencil.json --ranks 65536 --network topology --topology torus:256x256 --bound max\n" +
      sim::describe_generators());
  cmd->add_option("-m,--machine", r->machine, "built-in machine or model file (default: the trace's machine, else generic)");
  add_network_options(*cmd, *r);
  cmd->add_option("--collectives", r->collectives,
                  "model (priced whole) or expand (as messages); default: expand with loggops or a chosen algorithm");
  cmd->add_option("--algorithm", r->algorithms, "algorithms of expanded collectives, e.g. bcast=bt,allreduce=ring");
  cmd->add_option("--generate", r->generator, "simulate a generated collective: NAME then key=value parameters");
  cmd->add_option("--app", r->app, "run the program section of this application model (docs/app-model-format.md)");
  cmd->add_option("--ranks", r->ranks, "with --app: the number of ranks to run it at");
  cmd->add_option("--set", r->settings, "with --app: NAME=NUMBER, a parameter's (or constant's) value");
  cmd->add_flag("--no-bounds", r->no_bounds, "with --app: skip the runs at the laws' low and high bounds");
  cmd->add_option("--write-schedule", r->write_schedule, "write the program as a schedule to this file (as LogGOPSim's GOAL when it ends in .goal)");
  cmd->add_option("--scale", r->scale,
                  "NAME=FACTOR: a machine parameter times FACTOR (L, o, g, G, O, L:CLASS, G:CLASS, law:OP, compute; "
                  "above 1 is worse; `augur sensitivity --list` names a machine's; repeat for more)")
      ->allow_extra_args(false);  // one NAME=FACTOR a flag, so it never swallows the program file
  cmd->add_option("--compute-scale", r->compute_scale,
                  "multiply a trace's or an app model's compute times (a slower or faster node)");
  cmd->add_option("--match", r->match,
                  "wildcard receives of a trace: simulated (in the simulated order) or recorded (as matched in the run)")
      ->capture_default_str();
  cmd->add_option("--trace", r->trace_out, "write the simulated run as a native trace to this directory");
  cmd->add_option("--report", r->report, "also keep the JSON report in this file");
  cmd->add_option("--utilisation", r->utilisation,
                  "write each rank's compute and MPI fractions over time, and with --network topology each link's "
                  "busy share, to this CSV file (also in --json; the busiest links in the report)");
  cmd->add_option("--html", r->html,
                  "write the simulated run as an HTML timeline with utilisation strips per rank and busiest link");
  cmd->add_option("--bins", r->bins, "time intervals of --utilisation")->capture_default_str();
  cmd->add_flag("--json", r->json, "print the report as JSON");
  add_ranks_table_flag(cmd, r->shown);
  cmd->add_flag("--no-progress", r->no_progress, "no progress bar on the terminal");
  cmd->add_option("input", r->inputs, "trace directory, schedule or GOAL file; with --generate, key=value parameters");
  cmd->callback([r] { with_usage_errors([&] { run(*r); }); });
}

}  // namespace augur::cli
