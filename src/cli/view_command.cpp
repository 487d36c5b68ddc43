// `augur view`: the timing diagram of one trace, or of a measured and a predicted run together.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/trace_input.hpp"
#include "report/timeline.hpp"

namespace augur::cli {

void add_view_command(CLI::App& app) {
  struct Options {
    std::vector<std::string> traces;
    std::string output = "timeline.html", title;
  };
  auto o = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("view", "Draw a trace (or measured and predicted traces) as an HTML timeline");
  cmd->footer(
      "The page is one file that works offline. Wheel zooms, dragging pans, a click places\n"
      "measuring bar 1 and a shift-click bar 2. With two traces each rank shows the first\n"
      "(measured) above the second (predicted); a red veil marks predicted states that took\n"
      "longer than measured, a blue one shorter, opaque at a factor of 16.\n"
      "Examples:\n  augur view run/ -o run.html\n  augur view measured/ predicted/ -o both.html");
  cmd->add_option("traces", o->traces, "one or two traces: measured first")->required()->expected(1, 2);
  cmd->add_option("-o,--output", o->output, "HTML file to write");
  cmd->add_option("--title", o->title, "heading of the page");
  cmd->callback([o] {
    std::vector<trace::Trace> traces;
    for (const auto& p : o->traces) traces.push_back(open_trace(p, "augur view"));
    report::TimelineOptions options;
    options.title = o->title.empty() ? o->traces[0] + (o->traces.size() > 1 ? " vs " + o->traces[1] : "") : o->title;
    for (const auto& p : o->traces) options.trace_names.push_back(std::filesystem::path(p).filename().string());
    std::ofstream out(o->output);
    if (!out) throw UsageError(o->output + ": cannot create");
    std::vector<const trace::Trace*> pointers;
    for (const auto& t : traces) pointers.push_back(&t);
    report::write_timeline_html(pointers, options, out);
    std::cout << o->output << "\n";
    fail_if_damaged(pointers);
  });
}

}  // namespace augur::cli
