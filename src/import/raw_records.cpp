#include "import/raw_records.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

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
nlohmann::json placement(int p, int ranks_per_node) {
  return {{"nodes", (p + ranks_per_node - 1) / ranks_per_node}, {"ranks_per_node", std::min(p, ranks_per_node)}};
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
  if (options.ranks_per_node > 0) provenance["settings"]["ranks_per_node"] = options.ranks_per_node;
  if (!documents.empty() && !date_of(documents.front()).empty()) provenance["date"] = date_of(documents.front());
  return {{"machine", {{"name", options.machine_name.empty() ? "imported" : options.machine_name}}},
          {"provenance", std::move(provenance)}};
}

}  // namespace

Imported to_raw(const std::vector<Document>& documents, const ImportOptions& options) {
  Imported out;
  nlohmann::json files = nlohmann::json::array();
  for (const auto& doc : documents) {
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
      if (p > 0 && options.ranks_per_node > 0) entry["placement"] = placement(p, options.ranks_per_node);
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
          if (mapping.groups_together && table.group) m.pass = *table.group + 1;  // the groups, pooled by the fit
          try {
            fit::check_measurement(m);
          } catch (const std::invalid_argument& e) {
            throw ImportError(doc.source, row.line, e.what());
          }
          out.raw.points.push_back(std::move(m));
        }
      }
      tables.push_back(std::move(entry));
    }
    out.left_out.insert(out.left_out.end(), doc.notes.begin(), doc.notes.end());
    files.push_back({{"file", doc.source}, {"suite", doc.suite}, {"version", doc.version}, {"lines", lines_of(doc)}, {"tables", std::move(tables)}});
  }
  out.raw.header = header_of(documents, options, std::move(files));
  return out;
}

}  // namespace augur::import
