// `augur machines`: the built-in machine models, or one machine's operations; `augur machines
// export`: a machine description as a SimGrid platform.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/sim_setup.hpp"
#include "model/machines.hpp"
#include "report/sheet.hpp"
#include "model/units.hpp"
#include "sim/network/machine_json.hpp"
#include "sim/network/simgrid_platform.hpp"
#include "sim/network/topologies.hpp"

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

struct ExportRequest {
  std::string topology, output, hostfile;
  int ranks = 0;  // 0: one per core
  double host_speed = 1e9;
};

// Written beside the target and renamed over it, so a failed write leaves no half file.
void write_whole(const std::filesystem::path& path, const std::string& text) {
  auto temp = path;
  temp += ".partial";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) throw UsageError(fmt::format("{}: cannot open for writing", path.string()));
    out << text;
    out.flush();
    if (!out) {
      std::filesystem::remove(temp);
      throw UsageError(fmt::format("{}: write failed", path.string()));
    }
  }
  std::filesystem::rename(temp, path);
}

void run_export(const ExportRequest& r) {
  sim::Machine machine;
  try {
    machine = sim::machine_from_argument(r.topology);
  } catch (const std::runtime_error& e) {  // the file's errors: ModelError, ParasolError
    throw UsageError(e.what());
  }
  if (!(r.host_speed > 0)) throw UsageError("--host-speed must be positive (flop/s of a node of speed 1)");
  if (r.ranks < 0) throw UsageError("--ranks must not be negative");
  const auto platform = sim::simgrid_platform(machine, {.reference_speed = r.host_speed});
  const auto hosts = r.hostfile.empty() ? "" : sim::simgrid_hostfile(machine, r.ranks ? r.ranks : sim::core_count(machine));
  if (r.output.empty() || r.output == "-") std::cout << platform;
  else write_whole(r.output, platform);
  if (!r.hostfile.empty()) write_whole(r.hostfile, hosts);
}

void add_export_command(CLI::App& machines) {
  auto r = std::make_shared<ExportRequest>();
  auto* cmd = machines.add_subcommand("export", "Write a machine description as a SimGrid platform file (version 4.1)");
  cmd->footer(
      "Hosts n0 … are the machine's compute nodes, links keep their bandwidth, latency (plus the\n"
      "machine's hop latency) and duplex (SPLITDUPLEX or SHARED), and every pair of hosts gets the\n"
      "route augur's router picks, so SimGrid and `augur sim --network topology` send each message\n"
      "over the same links (docs/machine-format.md, \"SimGrid platforms\"); a node's memory is its route\n"
      "to itself. A dragonfly G,1,R,N becomes SimGrid's own DRAGONFLY cluster, which routes as augur does.\n"
      "Examples:\n"
      "  augur machines export torus:4x4 -o torus.xml\n"
      "  augur machines export fattree:4,3,bandwidth=10GB/s,latency=500ns -o fattree.xml\n"
      "  augur machines export cluster.json -o cluster.xml --hostfile cluster.hosts --ranks 32\n"
      "  smpirun -platform cluster.xml -hostfile cluster.hosts -np 32 --cfg=smpi/host-speed:1Gf ./app\n");
  cmd->add_option("topology", r->topology, "a machine file (docs/machine-format.md) or NAME:params, e.g. star:8")
      ->required();
  cmd->add_option("-o,--output", r->output, "platform file to write (default: standard output)");
  cmd->add_option("--hostfile", r->hostfile, "also write SMPI's hostfile: the host of each rank under the machine's mapping");
  cmd->add_option("--ranks", r->ranks, "ranks in the hostfile (default: one per core)");
  cmd->add_option("--host-speed", r->host_speed, "flop/s of a node of speed 1 (SMPI's smpi/host-speed)")
      ->capture_default_str();
  cmd->callback([r] { with_usage_errors([&] { run_export(*r); }); });
}

// A machine of nodes: its point-to-point laws on one node and between nodes side by side, at a
// short and a long message, and the placements its collectives were measured at.
void print_levels(const model::Model& m) {
  const auto& nodes = *m.nodes;
  std::cout << "nodes: " << nodes.ranks_per_node << " ranks a node (docs/nodes.md); above, the between-nodes level\n"
            << fmt::format("  {:<14} {:>12} {:>12} {:>12} {:>12}\n", "point-to-point", "on node 8 B", "between 8 B",
                           "on node 64K", "between 64K");
  const auto at = [&](const model::Operation* op, double bytes) { return report::pair_time_or_dash(m, op, bytes); };
  for (const auto& [name, on_node] : nodes.on_node) {
    const auto* between = m.find(name);
    std::cout << fmt::format("  {:<14} {:>12} {:>12} {:>12} {:>12}\n", name, at(&on_node, 8), at(between, 8),
                             at(&on_node, 65536), at(between, 65536));
  }
  for (const auto& [per_node, ops] : nodes.placements) {
    std::string names;
    for (const auto& [name, _] : ops) names += (names.empty() ? "" : " ") + name;
    std::cout << "  measured at " << per_node << " ranks a node: " << names << "\n";
  }
}

// What `augur machines` lists of a machine beside its name: the year it was measured, its
// network and the ranks a node it ran with, as its provenance gives them ("-" where it does not).
std::string year_of(const model::Model& m) {
  const auto& date = m.provenance.date;
  const bool is_year = date.size() >= 4 && std::all_of(date.begin(), date.begin() + 4, [](unsigned char c) { return std::isdigit(c); });
  return is_year ? date.substr(0, 4) : "-";
}

std::string setting_text(const model::Model& m, const char* key) {
  const auto& settings = m.provenance.settings;
  if (!settings.is_object() || !settings.contains(key)) return "-";
  const auto& value = settings.at(key);
  return value.is_string() ? value.get<std::string>() : value.dump();
}

// The description up to its first colon or full stop: what the machine is, without the notes.
std::string headline(const std::string& description) {
  auto end = std::min(description.find(": "), description.find(". "));
  auto text = description.substr(0, end);
  constexpr std::size_t kWidest = 72;
  if (text.size() <= kWidest) return text;
  auto cut = kWidest - 3;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
  return text.substr(0, cut) + "...";
}

// The provenance a catalogue model carries (docs/machines-today.md), where the model has it.
void print_provenance(const model::Model& m) {
  const auto& p = m.provenance;
  if (!p.date.empty()) std::cout << "date: " << p.date << "\n";
  if (!p.mpi_library.empty()) std::cout << "MPI library: " << p.mpi_library << (p.mpi_version.empty() ? "" : " " + p.mpi_version) << "\n";
  for (const char* key : {"network", "ranks_per_node", "node", "node_figures", "lacks"})
    if (const auto text = setting_text(m, key); text != "-") std::cout << key << ": " << text << "\n";
}

void list_machines() {
  std::cout << fmt::format("{:<16} {:<5} {:<40} {:<6} {}\n", "machine", "year", "network", "ranks", "what it is");
  std::cout << fmt::format("{:<16} {:<5} {:<40} {:<6}\n", "", "", "", "a node");
  for (const auto& n : model::builtin_machine_names()) {
    const auto m = model::load_machine(n);
    std::cout << fmt::format("{:<16} {:<5} {:<40} {:<6} {}\n", n, year_of(m), setting_text(m, "network"),
                             setting_text(m, "ranks_per_node"), headline(m.machine.description));
  }
  std::cout << "(`augur machines NAME` gives a machine's source, provenance and operations.)\n";
}

}  // namespace

void add_machines_command(CLI::App& app) {
  auto name = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("machines", "List the built-in machine models, or show one machine's operations");
  cmd->add_option("machine", *name, "a built-in name or a model file: show its provenance and operations");
  add_export_command(*cmd);
  cmd->callback([cmd, name] {
    if (cmd->got_subcommand("export")) return;
    if (name->empty()) {
      list_machines();
      list_topologies();
      return;
    }
    auto m = model::load_machine(*name);
    std::cout << m.machine.name << ": " << m.machine.description << "\n"
              << "source: " << m.provenance.source << "\n";
    print_provenance(m);
    std::cout << "units: time in " << m.units.time << ", d in " << m.units.size << "\n";
    for (const auto& [op_name, op] : m.operations)
      std::cout << "  " << op_name << " (" << model::mpi_name(op_name) << "; " << op.regimes.size() << " regime"
                << (op.regimes.size() > 1 ? "s" : "") << "): " << op.meaning << "\n";
    if (m.nodes) print_levels(m);
  });
}

}  // namespace augur::cli
