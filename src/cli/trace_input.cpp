#include "cli/trace_input.hpp"

#include <iostream>
#include <stdexcept>

#include "cli/commands.hpp"
#include "cli/sim_setup.hpp"
#include "model/machines.hpp"
#include "sim/kernel/goal_trace.hpp"
#include "trace/file_kind.hpp"
#include "trace/read_any.hpp"

namespace augur::cli {
namespace {

// A GOAL schedule has no times of its own: its run on the network `augur sim` gives it without
// options (the generic machine's model network), so every trace command reads the run a user
// would simulate, and says so.
trace::Trace goal_run(const std::filesystem::path& path) {
  const auto model = model::load_machine(machine_for("", ""));
  const auto chosen = make_network(NetworkRequest{}, model);
  auto run = sim::goal_trace(path.string(), *chosen.network, model.machine.name);
  std::cerr << "augur: note: " << path.string() << ": a GOAL schedule, read as its run simulated on machine "
            << model.machine.name << " (what `augur sim " << path.string() << " --trace T` writes)\n";
  return run;
}

}  // namespace

trace::Trace open_trace(const std::filesystem::path& path, std::string_view command, const Expected& expected) {
  if (trace::describe_file(path).kind == trace::FileKind::goal) return goal_run(path);
  trace::Trace t;
  try {
    t = trace::read_trace(path);
  } catch (const std::runtime_error& e) {
    // A trace that is damaged throughout keeps the reader's error, which says where.
    const auto file = trace::describe_file(path);
    if (file.kind != trace::FileKind::missing && !trace::find_trace_format(path)) wrong_kind(path, file, command, expected);
    throw UsageError(e.what());
  }
  for (const auto& note : t.notes) std::cerr << "augur: note: " << path.string() << ": " << note << "\n";
  return t;
}

void fail_if_damaged(const std::vector<const trace::Trace*>& traces) {
  std::string message;
  for (const auto* t : traces)
    for (const auto& p : t->problems) message += (message.empty() ? "" : "\naugur: error: ") + p.message();
  if (!message.empty())
    throw std::runtime_error(message + "\n(the output above was made from what could be read before the damage)");
}

}  // namespace augur::cli
