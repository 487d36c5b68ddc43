#pragma once
// What `augur bench --budget` left out of a model: the record under provenance.settings.budget
// (docs/model-format.md). The predictors read it to say, when a program goes beyond the sizes or
// groups a model measured, that the budget left them out, not the machine.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace augur::model {

struct BudgetRecord {
  double budget_seconds = 0;
  double max_bytes = 0;         // the largest message the run measured
  double preset_max_bytes = 0;  // what it would have measured without the budget
  std::vector<int> groups_left_out;
  int passes_made = 0;
  int preset_passes = 0;
  // Points of the plan, and of them those the first pass measured before its time was up (the
  // later passes repeat only those); equal when the first pass finished. 0 when not recorded.
  int planned_points = 0, measured_points = 0;
  bool left_out_points() const { return measured_points < planned_points; }

  bool left_out_sizes() const { return max_bytes < preset_max_bytes; }
  bool left_out_anything() const {
    return left_out_sizes() || !groups_left_out.empty() || passes_made < preset_passes || left_out_points();
  }
  // "the 3m budget of augur bench left out messages above 64 KiB (its sweep goes to 1 MiB) and
  // made 5 of 25 passes"; empty when it left out nothing.
  std::string note() const;

  // The record in a model's provenance.settings, or nothing when there is none (a run without a
  // budget, a hand-written model). Throws std::invalid_argument naming the field when the record
  // is there but malformed.
  static std::optional<BudgetRecord> from_settings(const nlohmann::json& settings);
};

}  // namespace augur::model
