// `augur learn`: an application model learned from traces of one program at a few process counts,
// to simulate it at counts that were never run (`augur sim --app`) and plot its time and speedup
// (`augur plot`). docs/scale.md says when to learn, when to run at the count and when to generate.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/app_model.hpp"
#include "cli/commands.hpp"
#include "cli/named_numbers.hpp"
#include "cli/sim_setup.hpp"
#include "cli/trace_input.hpp"
#include "learn/learned_check.hpp"
#include "learn/learned_model_json.hpp"
#include "learn/learner.hpp"
#include "learn/time_blocks.hpp"
#include "model/machines.hpp"
#include "model/units.hpp"
#include "sim/program/replay.hpp"
#include "util/whole_file.hpp"

namespace augur::cli {
namespace fs = std::filesystem;
namespace {

struct LearnRequest {
  std::vector<std::string> traces;
  std::vector<std::string> params;  // NAME=VALUE, one per trace in order, or one for all
  std::string output, name;
  bool json = false;
  bool no_check = false;
  bool whole = false;
};

NamedNumber parse_param(const std::string& text) {
  auto p = parse_named_number(text, {"--param", "NAME=VALUE, e.g. n=1024", /*names_bad_number=*/true});
  if (p.name == "p") throw UsageError("--param p=…: p is the traces' own process count");
  return p;
}

std::vector<NamedNumber> params_per_trace(const LearnRequest& r) {
  std::vector<NamedNumber> out;
  for (const auto& text : r.params) out.push_back(parse_param(text));
  if (out.empty()) return std::vector<NamedNumber>(r.traces.size());
  if (out.size() == 1) return std::vector<NamedNumber>(r.traces.size(), out.front());
  if (out.size() != r.traces.size())
    throw UsageError(fmt::format("{} --param values for {} traces: give one per trace, in the traces' order, or one for all",
                                 out.size(), r.traces.size()));
  for (const auto& p : out)
    if (p.name != out.front().name)
      throw UsageError("--param names differ (" + out.front().name + ", " + p.name + "): augur learn learns one problem size");
  return out;
}

std::string program_name(const trace::Trace& t) {
  auto command = t.header.program.substr(0, t.header.program.find(' '));
  auto name = fs::path(command).filename().string();
  std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) ? "learned" : name;
}

// What a partial model leaves out, count by count: the calls its blocks fold and their share of the run.
void print_blocks_of_time(const learn::Learned& learned, const std::string& whole_refusal) {
  std::string why = whole_refusal;
  for (std::size_t at = why.find('\n'); at != std::string::npos; at = why.find('\n', at + 3)) why.replace(at, 1, "\n  ");
  std::cout << "a partial model: the whole program could not be learned as calls:\n  " << why
            << "\nso its collectives over the whole world are kept as calls, and what each rank does between two of "
               "them is one block of time (its slowest rank's), a law in p; the blocks answer neither the network nor "
               "the machine's laws:\n";
  for (const auto& b : learned.program.blocks_of_time)
    std::cout << fmt::format("  p = {:<5} {:>5.1f}% of the run in blocks, folding {:.0f} calls\n", b.p, 100 * b.share, b.calls);
}

void print_report(const learn::Learned& learned, const std::vector<learn::LearnRun>& runs,
                  const std::vector<learn::CountCheck>& checks, const fs::path& output, const std::string& whole_refusal) {
  if (!learned.program.blocks_of_time.empty()) print_blocks_of_time(learned, whole_refusal);
  std::cout << fmt::format("learned from {} traces at p = {}\n", runs.size(), fmt::join(learned.program.measured_ranks, ", "));
  for (std::size_t g = 0; g < learned.program.groups.size(); ++g) {
    const auto& group = learned.program.groups[g];
    std::cout << fmt::format("  group {}: ranks {} .. {}\n", g + 1, group.first.expr, group.last.expr);
  }
  std::cout << "laws (fit error: cross-validated, relative; exact: every run reproduced)\n";
  for (const auto& line : learned.laws)
    std::cout << fmt::format("  {:<58} {:<16} {:<28} {}\n", line.where, line.what,
                             line.law.form.empty() ? line.law.expr : line.law.form,
                             line.law.cv_error == 0 ? std::string("exact") : fmt::format("{:.2g}", line.law.cv_error));
  for (const auto& note : learned.notes) std::cout << "note: " << note << "\n";
  if (!checks.empty())
    std::cout << fmt::format("checked: the program simulated at each count it was learned from, against the trace "
                             "replayed: {}time within its laws' bounds and ±{:.1f}%\n",
                             learned.program.blocks_of_time.empty() ? "every call's count and bytes as the run's; "
                                                                    : "(the calls its blocks fold are not compared) ",
                             100 * checks.front().allowed);
  for (const auto& c : checks)
    std::cout << fmt::format("  p = {:<5} {:>12} learned, {:>12} replayed  {:+.1f}%\n", c.p,
                             model::format_seconds(c.learned), model::format_seconds(c.traced), 100 * c.miss());
  std::cout << fmt::format("wrote {}: simulate it with `augur sim --app {} --ranks P --machine M`\n", output.string(),
                           output.string());
}

// The learned program simulated at every traced count on the traces' machine, against each trace
// replayed there: a deadlock or a miss beyond the laws' errors is refused before anything is written.
std::vector<learn::CountCheck> check_against_traces(const nlohmann::ordered_json& doc, const fs::path& output,
                                     const std::vector<learn::LearnRun>& runs, const std::vector<trace::Trace>& traces,
                                     const std::string& parameter) {
  const auto model = app::parse_app_model(doc.dump(2), output.string());
  const auto machine = model::load_machine(machine_for("", traces.front().header.machine));
  std::vector<std::unique_ptr<sim::FlatProgram>> replays;
  std::vector<const sim::Program*> pointers;
  for (const auto& t : traces) replays.push_back(sim::replay_program(t).program), pointers.push_back(replays.back().get());
  const learn::NetworkAt network_at = [&](int ranks) { return make_network(NetworkRequest{}, machine, ranks).network; };
  try {
    return learn::check_learned(model, runs, pointers, parameter, network_at);
  } catch (const learn::LearnError& e) {
    throw ProgramFailed("learn: the learned program is wrong, nothing written: " + std::string(e.what()), 1);
  }
}

// The whole program, else (unless --whole) a partial model: its collectives over the world as
// calls and the rest as blocks of time (learn/time_blocks.hpp), with why the whole was refused.
learn::Learned learn_whole_or_blocks(const LearnRequest& r, const std::vector<trace::Trace>& traces,
                                     const std::vector<learn::LearnRun>& runs, const std::string& parameter,
                                     std::string& whole_refusal) {
  try {
    return learn::learn_program(runs, parameter);
  } catch (const learn::LearnError& e) {
    if (r.whole) throw ProgramFailed("learn: cannot learn the program: " + std::string(e.what()), 1);
    whole_refusal = e.what();
  }
  std::vector<learn::FoldedAt> folded;
  learn::Learned learned;
  try {
    learned = learn::learn_time_blocks(traces, runs, parameter, folded);
  } catch (const learn::LearnError& e) {
    throw ProgramFailed(fmt::format("learn: cannot learn the program: {}\nnor a partial model of it (its collectives over "
                                    "the whole world as calls, the rest as blocks of time): {}",
                                    whole_refusal, e.what()),
                        1);
  }
  for (const auto& f : folded) learned.program.blocks_of_time.push_back({f.p, double(f.calls), f.share});
  return learned;
}

void learn_command(const LearnRequest& r) {
  const auto params = params_per_trace(r);
  std::vector<learn::LearnRun> runs;
  std::vector<trace::Trace> traces;
  const auto wait_sets = std::make_shared<learn::WaitPlaceSets>();
  for (std::size_t i = 0; i < r.traces.size(); ++i) {
    auto t = open_trace(r.traces[i], "augur learn");
    runs.push_back({r.traces[i], t.nranks(), params[i].value, learn::rank_sequences(t, wait_sets)});
    traces.push_back(std::move(t));
  }
  std::string whole_refusal;
  auto learned = learn_whole_or_blocks(r, traces, runs, params.front().name, whole_refusal);
  learned.program.machine = traces.front().header.machine;
  const auto name = r.name.empty() ? program_name(traces.front()) : r.name;
  const fs::path output = r.output.empty() ? name + ".json" : r.output;
  std::vector<double> values;
  for (const auto& p : params) values.push_back(p.value);
  const auto doc = learn::learned_model_json(learned, name, traces.front().header.program, params.front().name, values);
  std::vector<learn::CountCheck> checks;
  if (!r.no_check) checks = check_against_traces(doc, output, runs, traces, params.front().name);
  util::write_whole_file(output, doc.dump(2) + "\n");
  if (r.json) std::cout << doc.dump(2) << "\n";
  else print_report(learned, runs, checks, output, whole_refusal);
}

}  // namespace

void add_learn_command(CLI::App& app) {
  auto r = std::make_shared<LearnRequest>();
  auto* cmd = app.add_subcommand("learn", "Learn an application model from traces at a few process counts, to simulate it at any");
  cmd->footer(R"(From traces of one program at several process counts (augur run --trace DIR, predicted or
--measure), augur learn finds each rank's loops, groups the ranks that do the same, writes
every peer as a rule in the rank and p (a fixed rank, an offset, a grid neighbour of
MPI_Dims_create, an exclusive or, any source) and every quantity (compute seconds, message
bytes, loop counts) as a law in p and the problem size chosen by the fitter, with its error.
The result is an application model (docs/app-model-format.md) with a program section:

  for p in 2 4 8 16; do augur run -np $p --machine M --trace tr-$p ./stencil2d 256; done
  augur learn tr-2 tr-4 tr-8 tr-16 -o stencil.json
  augur sim --app stencil.json --ranks 4096 --machine M --network topology --topology torus:64x64
  augur plot stencil.json --machine M

With a problem size, give it per trace: augur learn a b c d --param n=256 --param n=512 ….
What follows no rule (peers that depend on the data, phases that differ between counts) is
refused with the call, the ranks and the counts, and nothing is written; unless --whole, a
partial model is learned instead where it can be: the collectives over the whole world as
calls, and what each rank does between two of them as one block of time (its slowest rank's),
a law in p. The report gives each count's share of the run in blocks, and `augur sim` warns
with it: blocks answer neither the network nor the machine's laws.)");
  cmd->add_option("traces", r->traces, "trace directories of one program, at two or more process counts")->required();
  cmd->add_option("--param", r->params, "NAME=VALUE: the problem size of each trace, in order (or one for all)");
  cmd->add_option("-o,--output", r->output, "application model to write (default: NAME.json)");
  cmd->add_option("--name", r->name, "the model's name (default: the traced program's)");
  cmd->add_flag("--json", r->json, "print the model (exact values) instead of the report");
  cmd->add_flag("--whole", r->whole,
                "refuse a program whose calls follow no rule rather than learn a partial model of it");
  cmd->add_flag("--no-check", r->no_check,
                "write the model without simulating it at the traced counts against the traces replayed");
  cmd->callback([r] { learn_command(*r); });
}

}  // namespace augur::cli
