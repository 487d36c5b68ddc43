#include "import/raw_records.hpp"

#include <fmt/format.h>

#include "import/operations.hpp"

namespace augur::import {
namespace {

// A row's statistics: the table's headline time as median and mean (OMB's average over the
// ranks, IMB's t or t_avg), and the spread over the ranks where the file prints it.
fit::Measurement measurement(const std::string& op, int p, const Row& row) {
  fit::Measurement m;
  m.op = op;
  m.p = p;
  m.bytes = row.bytes;
  m.median = m.mean = *row.seconds;
  m.min = row.min_seconds.value_or(*row.seconds);
  m.max = row.max_seconds.value_or(*row.seconds);
  m.reps = row.iterations ? static_cast<int>(std::min<long>(*row.iterations, 1 << 30)) : 1;
  return m;
}

Mapping mapping_of(const Document& doc, const Table& table) {
  return doc.suite == "Intel MPI Benchmarks" ? imb_operation(table.benchmark) : omb_operation(table.benchmark);
}

// Why a table with an operation is still left out, or empty.
std::string reason_to_leave_out(const Table& table, const Mapping& mapping, int p) {
  if (!table.rows.front().seconds) return "a table of bandwidths without times";
  if (mapping.pair && p != 2)
    return fmt::format("{} processes in a ring, while the model's {} is between two partners", p, mapping.operation);
  return {};
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
      const int p = table.processes > 0 ? table.processes : options.processes;
      nlohmann::json entry = {{"benchmark", table.benchmark}, {"line", table.line}, {"rows", table.rows.size()}};
      if (!table.datatype.empty()) entry["datatype"] = table.datatype;
      if (table.group) entry["group"] = *table.group;
      auto why = mapping.operation.empty() ? mapping.why_not : std::string();
      if (why.empty() && p < 1)
        throw ImportError(doc.source, table.line,
                          fmt::format("{}: the file does not say how many processes ran it; give --processes N", table.benchmark));
      if (why.empty()) why = reason_to_leave_out(table, mapping, p);
      if (p > 0) entry["processes"] = p;
      if (!why.empty()) {
        entry["left_out"] = why;
        const auto group = table.group ? fmt::format(" (group {})", *table.group) : std::string();
        out.left_out.push_back(fmt::format("{}:{}: {}{}: {}", doc.source, table.line, table.benchmark, group, why));
      } else {
        entry["operation"] = mapping.operation;
        for (const auto& row : table.rows) {
          auto m = measurement(mapping.operation, p, row);
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
