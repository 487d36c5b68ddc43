#include "import/raw_records.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "fit/node_levels.hpp"
#include "import/operations.hpp"

namespace augur::import {
namespace {

// A row's statistics: the table's headline time as median and mean (OMB's average over the
// ranks, IMB's t or t_avg), and the spread over the ranks where the file prints it.
fit::Measurement measurement(const std::string& op, int p, const Row& row, double seconds) {
  fit::Measurement m;
  m.op = op;
  m.p = p;
  m.bytes = row.bytes;
  m.median = m.mean = seconds;
  m.min = row.min_seconds.value_or(seconds);
  m.max = row.max_seconds.value_or(seconds);
  m.reps = row.iterations ? static_cast<int>(std::min<long>(*row.iterations, 1 << 30)) : 1;
  return m;
}

// OMB's osu_bw and osu_bibw keep this many messages in flight unless run with -W; their output
// does not say. The time per message does not depend on it, but holds for streams that deep.
constexpr int kOmbDefaultWindow = 64;

// A row's time: the one printed, or, in a table of bandwidths (all pairs of the `printed_by`
// processes together), the time per message it implies: each pair moves `ways` messages of the
// size in that time. None for a row that implies none (size 0, or a bandwidth printed as 0.00).
std::optional<double> seconds_of(const Row& row, const Mapping& mapping, int printed_by) {
  if (mapping.ways == 0) return row.seconds;
  if (!row.bandwidth || !(*row.bandwidth > 0) || !(row.bytes > 0)) return std::nullopt;
  const double pairs = std::max(1, printed_by / 2);
  return mapping.ways * pairs * row.bytes / *row.bandwidth;
}


Mapping mapping_of(const Document& doc, const Table& table) {
  return doc.suite == "Intel MPI Benchmarks" ? imb_operation(table.benchmark) : omb_operation(table.benchmark);
}

// Why a table with an operation is still left out, or empty.
std::string reason_to_leave_out(const Table& table, const Mapping& mapping, int p) {
  if (mapping.ways == 0 && !table.rows.front().seconds) return "a table of bandwidths without times";
  if (mapping.pair && p != 2)
    return fmt::format("{} processes in a ring, while the model's {} is between two partners", p, mapping.operation);
  return {};
}

// Where a table's p ranks ran when placed block by block, K to a node: the last node may hold
// fewer, and a table of fewer than K ranks has them all on one node.
struct Placed {
  int nodes = 0, on_each = 0;
  bool even(int p) const { return nodes * on_each == p; }  // a record can say it: nodes x K = p
};

Placed block_placement(int p, int ranks_per_node) {
  return {(p + ranks_per_node - 1) / ranks_per_node, std::min(p, ranks_per_node)};
}

nlohmann::json placement(Placed where) { return {{"nodes", where.nodes}, {"ranks_per_node", where.on_each}}; }

int ranks_per_node_of(const Document& doc, const ImportOptions& options) {
  const auto found = options.ranks_per_node_of.find(doc.source);
  return found == options.ranks_per_node_of.end() ? options.ranks_per_node : found->second;
}

int most_ranks_per_node(const ImportOptions& options) {
  int most = options.ranks_per_node;
  for (const auto& [file, k] : options.ranks_per_node_of) most = std::max(most, k);
  return most;
}

// Why the placed records do not make a machine of two levels, which needs point-to-point records
// on one node and records one rank a node (docs/nodes.md, "Fitting two levels"); empty if they do.
std::string missing_level(const std::vector<fit::Measurement>& points, bool uneven_tables) {
  if (!fit::measured_across_nodes(points))
    return uneven_tables ? "the only tables across nodes fill them unevenly" : "every table ran on one node";
  const auto levels = fit::split_by_level(points);
  if (!levels.contains(fit::kOnNodeLevel))
    return "no point-to-point table ran on one node (give its file --ranks-per-node FILE=2)";
  if (!levels.contains(1)) return "no table ran one rank a node (give such a file --ranks-per-node FILE=1)";
  return {};
}

// A table whose ranks fill their nodes unevenly (6 ranks at 4 a node): a record's placement is
// nodes x ranks a node = p, so it cannot say where they ran.
struct Uneven {
  std::size_t first = 0, end = 0;  // its records in the points
  std::string where;               // "FILE:LINE: BENCHMARK at p ranks, K a node"
};

// Keeps the records' placement where they make two levels, dropping the tables no record can
// place; else strips it, and the placement stays in the provenance alone.
void settle_levels(Imported& out, const std::vector<Uneven>& uneven, bool placed) {
  if (!placed) return;
  auto& points = out.raw.points;
  const auto why = missing_level(points, !uneven.empty());
  if (!why.empty()) {
    for (auto& m : points) m.nodes = m.ranks_per_node = 0;
    out.levels = "one level: " + why + "; each table's placement is kept in the provenance";
    return;
  }
  for (auto u = uneven.rbegin(); u != uneven.rend(); ++u) {
    points.erase(points.begin() + static_cast<std::ptrdiff_t>(u->first), points.begin() + static_cast<std::ptrdiff_t>(u->end));
    out.left_out.push_back(u->where + ": the ranks fill their nodes unevenly, and a machine of nodes holds as many on each");
  }
  out.levels = "two levels: point-to-point on one node and between nodes (docs/nodes.md)";
}

nlohmann::json lines_of(const Document& doc) {
  nlohmann::json lines = nlohmann::json::object();
  for (const auto& [key, value] : doc.lines) lines[key] = value;
  return lines;
}

std::string date_of(const Document& doc) {
  for (const auto& [key, value] : doc.lines)
    if (key == "Date") return value;
  return {};
}

nlohmann::json header_of(const std::vector<Document>& documents, const ImportOptions& options, nlohmann::json files) {
  std::string suites, source;
  for (const auto& d : documents) {
    const auto suite = fmt::format("{} {}", d.suite, d.version);
    if (suites.find(suite) == std::string::npos) suites += (suites.empty() ? "" : ", ") + suite;
    source += (source.empty() ? "" : " ") + d.source;
  }
  nlohmann::json provenance = {{"source", fmt::format("{} output: {}", suites, source)},
                               {"measured_by", suites},
                               {"settings", {{"import", std::move(files)}}}};
  if (most_ranks_per_node(options) > 0) provenance["settings"]["ranks_per_node"] = most_ranks_per_node(options);
  if (!documents.empty() && !date_of(documents.front()).empty()) provenance["date"] = date_of(documents.front());
  return {{"machine", {{"name", options.machine_name.empty() ? "imported" : options.machine_name}}},
          {"provenance", std::move(provenance)}};
}

}  // namespace

Imported to_raw(const std::vector<Document>& documents, const ImportOptions& options) {
  Imported out;
  std::vector<Uneven> uneven;
  bool placed = false;
  nlohmann::json files = nlohmann::json::array();
  for (const auto& doc : documents) {
    const int ranks_per_node = ranks_per_node_of(doc, options);
    nlohmann::json tables = nlohmann::json::array();
    for (const auto& table : doc.tables) {
      const auto mapping = mapping_of(doc, table);
      // The processes a row's numbers are of, and those the operation ran on: more under -multi.
      const int printed_by = table.processes > 0 ? table.processes : options.processes;
      const int p = mapping.groups_together && table.groups ? printed_by * *table.groups : printed_by;
      nlohmann::json entry = {{"benchmark", table.benchmark}, {"line", table.line}, {"rows", table.rows.size()}};
      if (!table.datatype.empty()) entry["datatype"] = table.datatype;
      if (table.group) entry["group"] = *table.group;
      if (table.groups) entry["groups_at_once"] = *table.groups;
      auto why = mapping.operation.empty() ? mapping.why_not : std::string();
      if (why.empty() && p < 1)
        throw ImportError(doc.source, table.line,
                          fmt::format("{}: the file does not say how many processes ran it; give --processes N", table.benchmark));
      if (why.empty()) why = reason_to_leave_out(table, mapping, p);
      if (p > 0) entry["processes"] = p;
      const auto where = ranks_per_node > 0 ? block_placement(p, ranks_per_node) : Placed{};
      const bool even = where.even(p);
      if (p > 0 && ranks_per_node > 0) entry["placement"] = placement(where);
      const std::size_t first = out.raw.points.size();
      if (!why.empty()) {
        entry["left_out"] = why;
        const auto group = table.group ? fmt::format(" (group {})", *table.group) : std::string();
        out.left_out.push_back(fmt::format("{}:{}: {}{}: {}", doc.source, table.line, table.benchmark, group, why));
      } else {
        entry["operation"] = mapping.operation;
        if (mapping.ways > 0) {
          const int pairs = std::max(1, printed_by / 2);
          entry["time_per_message"] = fmt::format("{} x {} pair{} x size / bandwidth", mapping.ways, pairs, pairs > 1 ? "s" : "");
          if (doc.suite != "Intel MPI Benchmarks") entry["window"] = table.window.value_or(kOmbDefaultWindow);
        }
        for (const auto& row : table.rows) {
          const auto seconds = seconds_of(row, mapping, printed_by);
          if (!seconds) {
            out.left_out.push_back(fmt::format("{}:{}: {} at {} bytes: no time per message in a bandwidth of {} MB/s", doc.source,
                                               row.line, table.benchmark, row.bytes, row.bandwidth.value_or(0) / 1e6));
            continue;
          }
          auto m = measurement(mapping.operation, p, row, *seconds);
          if (ranks_per_node > 0 && even) {
            m.nodes = where.nodes;
            m.ranks_per_node = where.on_each;
          }
          if (mapping.groups_together && table.group) m.pass = *table.group + 1;  // the groups, pooled by the fit
          try {
            fit::check_measurement(m);
          } catch (const std::invalid_argument& e) {
            throw ImportError(doc.source, row.line, e.what());
          }
          out.raw.points.push_back(std::move(m));
        }
        placed = placed || ranks_per_node > 0;
        if (ranks_per_node > 0 && !even && out.raw.points.size() > first)
          uneven.push_back({first, out.raw.points.size(),
                            fmt::format("{}:{}: {} at {} ranks, {} a node", doc.source, table.line, table.benchmark, p, ranks_per_node)});
      }
      tables.push_back(std::move(entry));
    }
    out.left_out.insert(out.left_out.end(), doc.notes.begin(), doc.notes.end());
    files.push_back({{"file", doc.source}, {"suite", doc.suite}, {"version", doc.version}, {"lines", lines_of(doc)}, {"tables", std::move(tables)}});
  }
  settle_levels(out, uneven, placed);
  out.raw.header = header_of(documents, options, std::move(files));
  if (!out.levels.empty()) out.raw.header["provenance"]["settings"]["levels"] = out.levels;
  return out;
}

}  // namespace augur::import
