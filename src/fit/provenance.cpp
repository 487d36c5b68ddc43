#include "fit/provenance.hpp"

#include <map>
#include <stdexcept>
#include <vector>

#include "model/units.hpp"

namespace augur::fit {
namespace {

const nlohmann::json* optional_object(const nlohmann::json& parent, const char* key, const std::string& path) {
  auto it = parent.find(key);
  if (it == parent.end() || it->is_null()) return nullptr;
  if (!it->is_object()) throw std::invalid_argument(path + ": must be an object");
  return &*it;
}

std::string optional_string(const nlohmann::json& parent, const char* key, const std::string& path) {
  auto it = parent.find(key);
  if (it == parent.end() || it->is_null()) return {};
  if (!it->is_string()) throw std::invalid_argument(path + "." + key + ": must be a string");
  return it->get<std::string>();
}

}  // namespace

Origin origin_from_header(const nlohmann::json& header, const std::string& fallback_source) {
  Origin origin;
  origin.machine.name = "fitted";
  if (const auto* machine = optional_object(header, "machine", "machine")) {
    if (auto name = optional_string(*machine, "name", "machine"); !name.empty()) origin.machine.name = name;
    origin.machine.description = optional_string(*machine, "description", "machine");
  }
  auto& p = origin.provenance;
  if (const auto* provenance = optional_object(header, "provenance", "provenance")) {
    p.source = optional_string(*provenance, "source", "provenance");
    p.mpi_library = optional_string(*provenance, "mpi_library", "provenance");
    p.mpi_version = optional_string(*provenance, "mpi_version", "provenance");
    p.date = optional_string(*provenance, "date", "provenance");
    p.measured_by = optional_string(*provenance, "measured_by", "provenance");
    if (const auto* settings = optional_object(*provenance, "settings", "provenance.settings")) p.settings = *settings;
  }
  if (p.source.empty()) p.source = fallback_source.empty() ? "raw measurements" : fallback_source;
  if (p.settings.empty())
    if (const auto* settings = optional_object(header, "settings", "settings")) p.settings = *settings;
  return origin;
}

nlohmann::json unmeasurable_note(const std::vector<Unmeasurable>& records) {
  nlohmann::json note;
  for (const auto& u : records)
    if (!note.contains(u.op)) note[u.op] = {{"error", u.error}, {"p", u.p}, {"bytes", u.bytes}};
  return note;
}

std::string unmeasurable_summary(const model::Provenance& provenance) {
  const auto note = provenance.settings.find("not_measurable");
  if (note == provenance.settings.end() || !note->is_object() || note->empty()) return {};
  // Operations that failed alike are named together, before their common error.
  std::map<std::string, std::vector<std::string>> by_error;
  for (const auto& [op, what] : note->items())
    by_error[error_headline(what.is_object() ? what.value("error", "") : "")].push_back(model::mpi_name(op));
  std::string text;
  for (const auto& [error, names] : by_error) {
    std::string list;
    for (const auto& name : names) list += (list.empty() ? "" : ", ") + name;
    text += (text.empty() ? "" : "; ") + list + (error.empty() ? "" : " (" + error + ")");
  }
  return "the MPI library could not run " + text;
}

}  // namespace augur::fit
