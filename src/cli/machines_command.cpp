// `augur machines`: the built-in machine models, or one machine's operations.
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "model/machines.hpp"
#include "model/units.hpp"
#include "sim/topologies.hpp"

namespace augur::cli {
namespace {

// The generators `augur sim --network topology --topology NAME:params` accepts.
void list_topologies() {
  std::cout << "\nTopologies for `augur sim --network topology --topology NAME:params[,key=value…]`\n"
               "(keys: latency, bandwidth, duplex=full|half, cores, speed; defaults 1us, 1GB/s, full, 1, 1):\n";
  for (const auto& g : sim::generators())
    std::cout << fmt::format("  {:<10} {:<9} {:<20} {}; routing: {}\n", g.name, g.params, g.example, g.description,
                             g.routing);
}

}  // namespace

void add_machines_command(CLI::App& app) {
  auto name = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("machines", "List the built-in machine models, or show one machine's operations");
  cmd->add_option("machine", *name, "a built-in name or a model file: show its provenance and operations");
  cmd->callback([name] {
    if (name->empty()) {
      for (const auto& n : model::builtin_machine_names()) {
        auto m = model::load_machine(n);
        std::cout << n << "\t" << m.machine.description << "\n";
      }
      list_topologies();
      return;
    }
    auto m = model::load_machine(*name);
    std::cout << m.machine.name << ": " << m.machine.description << "\n"
              << "source: " << m.provenance.source << "\n"
              << "units: time in " << m.units.time << ", d in " << m.units.size << "\n";
    for (const auto& [op_name, op] : m.operations)
      std::cout << "  " << op_name << " (" << model::mpi_name(op_name) << "; " << op.regimes.size() << " regime"
                << (op.regimes.size() > 1 ? "s" : "") << "): " << op.meaning << "\n";
  });
}

}  // namespace augur::cli
