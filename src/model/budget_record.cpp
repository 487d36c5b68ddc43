#include "model/budget_record.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "model/units.hpp"

namespace augur::model {
namespace {

const nlohmann::json& field(const nlohmann::json& object, const char* key, const std::string& path) {
  if (!object.is_object() || !object.contains(key))
    throw std::invalid_argument("provenance.settings.budget" + path + ": missing '" + key + "'");
  return object.at(key);
}

double number(const nlohmann::json& object, const char* key, const std::string& path = "") {
  const auto& value = field(object, key, path);
  if (!value.is_number() || value.get<double>() < 0)
    throw std::invalid_argument("provenance.settings.budget" + path + "." + key + ": must be a number >= 0");
  return value.get<double>();
}

}  // namespace

std::string BudgetRecord::note() const {
  std::vector<std::string> parts;
  if (left_out_sizes())
    parts.push_back(fmt::format("messages above {} (its sweep goes to {})", format_bytes(max_bytes),
                                format_bytes(preset_max_bytes)));
  if (!groups_left_out.empty()) {
    std::string groups;
    for (int p : groups_left_out) groups += (groups.empty() ? "" : ", ") + std::to_string(p);
    parts.push_back("groups of " + groups + " processes");
  }
  if (left_out_points())
    parts.push_back(fmt::format("{} of the sweep's {} points", planned_points - measured_points, planned_points));
  if (passes_made < preset_passes) parts.push_back(fmt::format("{} of {} passes", preset_passes - passes_made, preset_passes));
  if (parts.empty()) return "";
  std::string text = fmt::format("the {} budget of augur bench left out ", format_duration(budget_seconds));
  for (std::size_t i = 0; i < parts.size(); ++i)
    text += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
  return text;
}

std::optional<BudgetRecord> BudgetRecord::from_settings(const nlohmann::json& settings) {
  if (!settings.is_object() || !settings.contains("budget")) return std::nullopt;
  const auto& b = settings.at("budget");
  if (!b.is_object()) throw std::invalid_argument("provenance.settings.budget: must be an object");
  BudgetRecord r;
  r.budget_seconds = number(b, "budget_seconds");
  r.passes_made = static_cast<int>(number(b, "passes_made"));
  const auto& preset = field(b, "preset", "");
  const auto& planned = field(b, "planned", "");
  r.preset_max_bytes = number(preset, "max_bytes", ".preset");
  r.preset_passes = static_cast<int>(number(preset, "passes", ".preset"));
  r.max_bytes = number(planned, "max_bytes", ".planned");
  // Older records lack the counts: nothing was left out that they know of.
  if (b.contains("planned_points") && b.contains("first_pass_points")) {
    r.planned_points = static_cast<int>(number(b, "planned_points"));
    r.measured_points = static_cast<int>(number(b, "first_pass_points"));
  }
  const auto& groups = field(b, "groups_left_out", "");
  if (!groups.is_array()) throw std::invalid_argument("provenance.settings.budget.groups_left_out: must be an array");
  for (const auto& p : groups) {
    if (!p.is_number_integer()) throw std::invalid_argument("provenance.settings.budget.groups_left_out: must hold whole numbers");
    r.groups_left_out.push_back(p.get<int>());
  }
  return r;
}

}  // namespace augur::model
