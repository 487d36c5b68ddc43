// `augur trace convert` exports a trace to the formats other viewers read; `augur trace synth`
// writes a made-up trace to try the tools on.
#include <chrono>
#include <iostream>
#include <map>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/trace_input.hpp"
#include "model/units.hpp"
#include "trace/exporters.hpp"
#include "trace/synthetic.hpp"

namespace augur::cli {

namespace {

struct ConvertOptions {
  std::string input, output, format;
  double chunk_mib = double(trace::kDefaultJsonChunkBytes >> 20);
};

trace::Files convert(const trace::Trace& t, const ConvertOptions& o) {
  if (o.format == "otf2") return trace::export_otf2(t, o.output);
  if (o.format == "perfetto" || o.format == "json")
    return trace::export_chrome_json(t, o.output, static_cast<std::uint64_t>(o.chunk_mib * (1 << 20)));
  if (o.format == "paraver") return trace::export_paraver(t, o.output);
  if (o.format == "messages") return trace::export_messages(t, o.output);
  return trace::export_text(t, o.output);
}

void add_convert(CLI::App& trace_cmd) {
  auto o = std::make_shared<ConvertOptions>();
  auto* cmd = trace_cmd.add_subcommand("convert", "Convert a trace for another viewer");
  cmd->footer(
      "Formats:\n"
      "  otf2      OTF2 archive directory (Vampir, Scalasca, otf2-print): OUT/traces.otf2\n"
      "  perfetto  Chrome Trace Event JSON with message arrows (ui.perfetto.dev); split into\n"
      "            OUT.1.json, OUT.2.json ... above --chunk-mib\n"
      "  paraver   OUT.prv, OUT.pcf and OUT.row\n"
      "  text      the $types/$bars/$events text of the original simulator\n"
      "  messages  CSV, one row per message: sender, receiver, tag, communicator, bytes,\n"
      "            send_time, receive_posted, receive_end (seconds)\n"
      "Examples:\n"
      "  augur trace convert run/ -o run.json --to perfetto\n"
      "  augur trace convert run/ -o run-otf2 --to otf2 && otf2-print run-otf2/traces.otf2");
  cmd->add_option("trace", o->input, "a trace directory, rank file or text trace")->required();
  cmd->add_option("-o,--output", o->output, "where to write")->required();
  cmd->add_option("--to", o->format, "output format")
      ->required()
      ->check(CLI::IsMember({"otf2", "perfetto", "json", "paraver", "text", "messages"}));
  cmd->add_option("--chunk-mib", o->chunk_mib, "largest JSON file before splitting, MiB")
      ->check(CLI::PositiveNumber);
  cmd->callback([o] {
    auto t = open_trace(o->input, "augur trace convert");
    auto start = std::chrono::steady_clock::now();
    auto files = convert(t, *o);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (const auto& f : files) std::cout << f.string() << "\n";
    std::cerr << fmt::format("{} events converted in {}\n", t.event_count(), model::format_seconds(seconds));
    fail_if_damaged({&t});
  });
}

void add_synth(CLI::App& trace_cmd) {
  auto spec = std::make_shared<trace::SyntheticTraceSpec>();
  auto out = std::make_shared<std::string>();
  auto mode = std::make_shared<std::string>("measured");
  auto* cmd = trace_cmd.add_subcommand(
      "synth", "Write a made-up trace (a ring exchange with allreduces) to try the trace tools on");
  cmd->footer("Example:\n  augur trace synth -o demo --ranks 8 --events 100000");
  cmd->add_option("-o,--output", *out, "trace directory to create")->required();
  cmd->add_option("--ranks", spec->ranks, "number of ranks")->check(CLI::Range(1, 4096));
  cmd->add_option("--events", spec->events, "approximate number of events");
  cmd->add_option("--seed", spec->seed, "random seed of the compute times and message sizes");
  cmd->add_option("--compute-scale", spec->compute_scale, "multiplies every compute time")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--mode", *mode, "what the trace claims to be")
      ->check(CLI::IsMember({"measured", "predicted", "simulated"}));
  cmd->callback([spec, out, mode] {
    static const std::map<std::string, trace::TraceMode> modes = {
        {"measured", trace::TraceMode::measured}, {"predicted", trace::TraceMode::predicted},
        {"simulated", trace::TraceMode::simulated}};
    spec->mode = modes.at(*mode);
    auto n = trace::write_synthetic_trace(*out, *spec);
    std::cout << fmt::format("{}: {} events on {} ranks\n", *out, n, spec->ranks);
  });
}

}  // namespace

void add_trace_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("trace", "Convert traces to other formats, or make an example trace");
  cmd->require_subcommand(1);
  add_convert(*cmd);
  add_synth(*cmd);
}

}  // namespace augur::cli
