// `augur sensitivity`: what a faster or slower machine would buy a program. The program (as
// `augur sim` takes it) is re-simulated with each machine parameter scaled over a range of
// factors; the slope, the share of the run and the tolerance of each (src/analyze/sensitivity)
// are printed as tables, as JSON with every point, and drawn.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include <fmt/format.h>

#include "analyze/analysis.hpp"
#include "analyze/sensitivity.hpp"
#include "analyze/sensitivity_report.hpp"
#include "cli/commands.hpp"
#include "cli/external_tools.hpp"
#include "cli/input_files.hpp"
#include "cli/program_input.hpp"
#include "cli/sim_setup.hpp"
#include "sim/kernel/kernel.hpp"
#include "sim/kernel/trace_sink.hpp"

namespace augur::cli {
namespace fs = std::filesystem;
namespace {

struct SensitivityRequest : NetworkRequest, ProgramRequest {
  std::string machine;
  std::string collectives;
  std::string algorithms;
  std::vector<std::string> parameters;
  std::string factors;
  std::vector<double> growths = {1, 2, 5};
  std::string noise;
  int seeds = 10;
  int threads = 2;
  bool list = false;
  bool json = false;
  std::string plot;
};

sim::Options options_for(const SensitivityRequest& r, const ProgramInput& in) {
  sim::Options o;
  o.algorithms = in.algorithms;
  if (!r.algorithms.empty())
    for (auto& [c, a] : sim::parse_algorithm_choice(r.algorithms)) o.algorithms[c] = a;
  if (!r.collectives.empty() && r.collectives != "expand" && r.collectives != "model")
    throw UsageError("--collectives must be model or expand");
  o.expand_collectives = r.collectives.empty() ? !o.algorithms.empty() : r.collectives == "expand";
  return o;
}

// The parameters to sweep: those asked for, each checked against the network's; by default the
// network's own, and on the model network the laws of the calls the run made.
std::vector<sim::Knob> chosen_knobs(const SensitivityRequest& r, const std::vector<sim::Knob>& known,
                                    const sim::Result& baseline) {
  const auto named = [&](const std::string& name) {
    return std::find_if(known.begin(), known.end(), [&](const sim::Knob& k) { return k.name == name; });
  };
  std::vector<sim::Knob> out;
  if (r.parameters.empty() || r.parameters == std::vector<std::string>{"all"}) {
    for (const auto& k : known)
      if (r.parameters.size() == 1 || !k.name.starts_with("law:") || baseline.operations.contains(k.name.substr(4)))
        out.push_back(k);
    return out;
  }
  for (const auto& name : r.parameters) {
    const auto it = named(name);
    if (it == known.end()) {
      std::string names;
      for (const auto& k : known) names += (names.empty() ? "" : ", ") + k.name;
      throw UsageError(fmt::format("--parameters '{}': the {} network here has no such parameter (it has: {})", name,
                                   r.network, names));
    }
    if (std::none_of(out.begin(), out.end(), [&](const sim::Knob& k) { return k.name == name; })) out.push_back(*it);
  }
  return out;
}

analyze::Carriers carriers_of(const analyze::Analysis& a, std::size_t top) {
  analyze::Carriers c;
  c.path = a.path.length;
  c.operations.assign(a.shares.by_operation.begin(), a.shares.by_operation.end());
  c.ranks.assign(a.shares.by_rank.begin(), a.shares.by_rank.end());
  const auto by_share = [](const auto& x, const auto& y) { return x.second > y.second; };
  // Stable: equal shares keep the maps' order (by name, by rank), so a run prints the same.
  std::stable_sort(c.operations.begin(), c.operations.end(), by_share);
  std::stable_sort(c.ranks.begin(), c.ranks.end(), by_share);
  if (c.operations.size() > top) c.operations.resize(top);
  if (c.ranks.size() > top) c.ranks.resize(top);
  return c;
}

analyze::SensitivityOptions sweep_options(const SensitivityRequest& r, const analyze::Noise* noise) {
  analyze::SensitivityOptions o;
  if (!r.factors.empty()) o.factors = analyze::parse_factors(r.factors);
  o.growths.clear();
  for (double g : r.growths) {
    if (!(g > 0 && g < 1000)) throw UsageError(fmt::format("--growth {}: a growth is a percentage above 0, e.g. 1", g));
    o.growths.push_back(g / 100);
  }
  std::sort(o.growths.begin(), o.growths.end());
  if (r.threads < 1 || r.threads > 256) throw UsageError("--threads must be from 1 to 256");
  if (r.seeds < 1 || r.seeds > 100000) throw UsageError("--seeds must be from 1 to 100000");
  o.threads = r.threads;
  o.noise = noise;
  o.seeds = r.seeds;
  return o;
}

// The plots drawn into a directory of their own, then moved into `r.plot` whole.
void draw(const SensitivityRequest& r, const analyze::Sensitivity& s, const std::string& title) {
  const auto plots = analyze::sensitivity_plots(s, "sensitivity", title);
  TempDir tmp("augur-sensitivity");
  draw_plots(plots, {report::Picture::svg, report::Picture::png}, tmp.path(), "sensitivity.gp");
  fs::create_directories(r.plot);
  for (const auto& entry : fs::directory_iterator(tmp.path()))
    fs::copy_file(entry.path(), fs::path(r.plot) / entry.path().filename(), fs::copy_options::overwrite_existing);
  if (!r.json)
    std::cout << "\nPlots: " << r.plot << "/sensitivity-{all,PARAMETER}.{svg,png}, drawn by sensitivity.gp\n";
}

void run(const SensitivityRequest& r) {
  parse_bound(r.bound);
  if (r.match != "simulated" && r.match != "recorded") throw UsageError("--match must be simulated or recorded");
  if (!(r.compute_scale > 0)) throw UsageError("--compute-scale must be > 0");
  std::optional<analyze::Noise> noise;
  if (!r.noise.empty()) noise = analyze::parse_noise(r.noise);
  const auto options = sweep_options(r, noise ? &*noise : nullptr);
  const auto in = open_program(r, "augur sensitivity", r.bound);
  const auto model = load_machine_input(machine_for(r.machine, in.trace_machine), "augur sensitivity --machine");
  const int ranks = in.nranks();
  const auto base_options = options_for(r, in);
  const auto known = knobs_of(r, model);
  if (r.list) {
    for (const auto& k : known) std::cout << fmt::format("{:<14} {}\n", k.name, k.meaning);
    return;
  }
  // One run, from any thread: its own copy of the model (a law's expression is evaluated by one
  // thread at a time) and its own network; the program is shared, read only.
  const auto simulate = [&](const analyze::RunSpec& spec, sim::TraceSink* sink,
                            const std::function<void(const sim::Network&, const sim::Machine*)>& after) {
    const model::Model local = model;
    std::vector<Scale> scales;
    if (!spec.knob.empty()) scales.push_back({spec.knob, spec.factor});
    auto o = base_options;
    if (spec.knob == "compute") o.compute_scale = spec.factor;
    if (spec.noise)
      o.compute_delay = [n = spec.noise, seed = spec.seed](int rank, std::uint64_t k) { return n->delay(seed, rank, k); };
    const auto net = make_network(r, local, ranks, scales);
    const auto result = in.goal ? sim::simulate(*in.goal, *net.network, o, sink) : sim::simulate(*in.program, *net.network, o, sink);
    if (after) after(*net.network, net.machine.get());
    return result;
  };
  const auto baseline = simulate({}, nullptr, {});
  const auto knobs = chosen_knobs(r, known, baseline);
  analyze::Simulator simulator;
  simulator.time = [&](const analyze::RunSpec& spec) { return simulate(spec, nullptr, {}).predicted; };
  simulator.carriers = [&](const analyze::RunSpec& spec) {
    sim::TraceRecorder recorder(ranks, trace::TraceHeader{trace::TraceMode::simulated, "", "seconds, simulated",
                                                          "augur sensitivity"});
    analyze::Carriers c;
    simulate(spec, &recorder, [&](const sim::Network& net, const sim::Machine* machine) {
      c = carriers_of(analyze::analyze_trace(recorder.trace(), analyze::MessageCosts(&net, machine)), 4);
    });
    return c;
  };
  const auto s = analyze::sensitivity(simulator, knobs, options);
  const std::string title = fmt::format("{} on {} ({} ranks)", in.source, r.network, ranks);
  if (r.json) {
    auto j = analyze::to_json(s);
    j["input"] = in.source;
    j["network"] = r.network;
    j["ranks"] = ranks;
    if (!r.plot.empty()) draw(r, s, title);
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::cout << analyze::format_sensitivity(s, title);
  if (!r.plot.empty()) draw(r, s, title);
}

}  // namespace

void add_sensitivity_command(CLI::App& app) {
  auto r = std::make_shared<SensitivityRequest>();
  auto* cmd = app.add_subcommand("sensitivity", "What a faster or slower machine buys a program: slope and tolerance of each parameter");
  cmd->footer(
      "The program (a trace, a schedule, a GOAL file, --generate, or --app MODEL --ranks P, as augur sim\n"
      "takes them) is re-simulated with each machine parameter times each factor (default 1/8 to 16).\n"
      "A factor multiplies a cost, so above 1 is always a worse machine (G x2: half the bandwidth):\n"
      "  L latency, o overhead, g gap, G time per byte, O overhead per byte (LogGOPS; L and G also on a\n"
      "  topology, and L:CLASS, G:CLASS for one class of links: edge, core, direct, shared, memory),\n"
      "  law:OP an operation's law on the model network, compute every compute grain.\n"
      "For each: the run time at every factor; the slope at the machine as it is (dT/dL in s per s of\n"
      "latency: on LogGOPS, the number of latencies on the critical path) and the share of the run it\n"
      "carries; its tolerance, the factor at which the run has grown by 1%, 2%, 5% (--growth), with the\n"
      "critical path there. --noise adds a random delay to every compute grain, --seeds runs of it.\n"
      "docs/sensitivity.md explains how to read the tables and plots. Examples:\n"
      "  augur sensitivity --network loggops --loggops L=3us,o=1.5us,g=0,G=6ns halo.sched\n"
      "  augur sensitivity --app stencil.json --ranks 1024 --machine t3d --parameters law:send,compute\n"
      "  augur sensitivity --network topology --topology fattree:4,3 --generate alltoall p=64 --plot plots/\n"
      "  augur sensitivity T --factors 0.5..4:8 --noise exp:10us --seeds 20 --json\n"
      "  augur sensitivity --network loggops --loggops L=3us,o=1.5us --list        (the parameters)\n"
      "`augur sim --scale NAME=FACTOR` runs any one point alone.");
  cmd->add_option("-m,--machine", r->machine, "built-in machine or model file (default: the trace's machine, else generic)");
  add_network_options(*cmd, *r);
  cmd->add_option("--collectives", r->collectives, "model (priced whole) or expand (as messages)");
  cmd->add_option("--algorithm", r->algorithms, "algorithms of expanded collectives, e.g. bcast=bt,allreduce=ring");
  cmd->add_option("--generate", r->generator, "a generated program: NAME then key=value parameters");
  cmd->add_option("--app", r->app, "run the program section of this application model");
  cmd->add_option("--ranks", r->ranks, "with --app: the number of ranks to run it at");
  // One value per flag (commas split it), so no list swallows the program file after it.
  cmd->add_option("--set", r->settings, "with --app: NAME=NUMBER, a parameter's value")->allow_extra_args(false);
  cmd->add_option("--compute-scale", r->compute_scale, "multiply a trace's or an app model's compute times");
  cmd->add_option("--match", r->match, "wildcard receives of a trace: simulated or recorded")->capture_default_str();
  cmd->add_option("-p,--parameters", r->parameters,
                  "parameters to sweep, comma-separated (default: the network's; `all` adds every law)")
      ->delimiter(',')
      ->allow_extra_args(false);
  cmd->add_option("--factors", r->factors, "factors: a list 0.5,1,2 or a range A..B:N spaced on a log scale "
                                          "(default 0.125,0.25,0.5,0.75,1,1.1,1.25,1.5,2,3,4,6,8,10,12,16)");
  cmd->add_option("--growth", r->growths, "growths of the run, in percent, whose tolerance is sought")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->capture_default_str();
  cmd->add_option("--noise", r->noise, "a delay added to every compute grain: const:D, uniform:A..B, exp:MEAN, normal:MEAN,SD");
  cmd->add_option("--seeds", r->seeds, "runs of the noise, seeds 1 to N")->capture_default_str();
  cmd->add_option("--threads", r->threads, "simulations run at once")->capture_default_str();
  cmd->add_flag("--list", r->list, "list the parameters of the machine and network, and stop");
  cmd->add_flag("--json", r->json, "print every point, slope and tolerance as JSON with exact values");
  cmd->add_option("--plot", r->plot, "draw T against each factor into this directory (SVG and PNG, with gnuplot)");
  cmd->add_option("input", r->inputs, "trace directory, schedule or GOAL file; with --generate, key=value parameters");
  cmd->callback([r] { with_usage_errors([&] { run(*r); }); });
}

}  // namespace augur::cli
