#include "calc/calculator.hpp"

#include <cmath>

#include <fmt/format.h>

#include "model/budget_record.hpp"
#include "model/units.hpp"

namespace augur::calc {
namespace {

std::string range_text(const model::Regime& r) {
  if (std::isinf(r.to)) return fmt::format("size >= {} B", r.from);
  return fmt::format("{} B <= size < {} B", r.from, r.to);
}

// What a budget left out of the model, when it left out sizes or groups; empty otherwise.
std::string budget_note(const model::Model& model) {
  const auto record = model::BudgetRecord::from_settings(model.provenance.settings);
  if (!record || (!record->left_out_sizes() && record->groups_left_out.empty() && !record->left_out_points())) return "";
  return record->note();
}

// Laws fitted below a cache's size do not know what lies above it, so a user must be told; and
// when a budget cut the sweep short, that the budget, not the machine, set the limit.
std::string extrapolation_note(const model::Model& model, const Answer& a) {
  if (!a.extrapolated()) return "";
  std::string note = fmt::format("Extrapolated: the model measured messages up to {} and groups up to {} processes; "
                                 "beyond them its last regime is carried on.",
                                 model::format_bytes(a.measured->max_bytes), a.measured->max_processes);
  if (const auto budget = budget_note(model); !budget.empty()) note += " Measured within a budget: " + budget + ".";
  return note + "\n";
}

}  // namespace

Answer ask(const model::Model& model, const Question& q) {
  const auto& op = model.at(q.op);
  Answer a;
  a.question = q;
  a.question.op = op.name;  // the model's own name when the question used MPI's
  a.d = q.bytes / model.units.bytes_per_size_unit();
  a.regime = &op.regime_for(q.bytes);
  a.equation = a.regime->equation();
  a.measured = op.measured;
  a.seconds = {model.seconds(op, q.p, q.bytes, model::Bound::min), model.seconds(op, q.p, q.bytes, model::Bound::avg),
               model.seconds(op, q.p, q.bytes, model::Bound::max)};
  return a;
}

std::string format_answer(const model::Model& model, const Answer& a) {
  const auto& u = model.units;
  std::string d_text = u.size == "ints" ? fmt::format("{} ints of {} B", a.d, u.int_bytes) : fmt::format("{} B", a.d);
  return fmt::format(
      "{} ({}) on {}: p = {}, d = {}\n"
      "t = {}\n"
      "    (t in {}, p processes, d in {}; regime {})\n"
      "Times: min={} avg={} max={}\n",
      a.question.op, model::mpi_name(a.question.op), model.machine.name, a.question.p, d_text, a.equation, u.time,
      u.size, range_text(*a.regime), model::format_seconds(a.seconds.min), model::format_seconds(a.seconds.avg),
      model::format_seconds(a.seconds.max)) + extrapolation_note(model, a);
}

nlohmann::json answer_to_json(const model::Model& model, const Answer& a) {
  return {{"machine", model.machine.name},
          {"operation", a.question.op},
          {"p", a.question.p},
          {"bytes", a.question.bytes},
          {"d", a.d},
          {"units", {{"time", model.units.time}, {"size", model.units.size}, {"int_bytes", model.units.int_bytes}}},
          {"equation", a.equation},
          {"regime", {{"from", a.regime->from}, {"to", std::isinf(a.regime->to) ? nlohmann::json(nullptr) : nlohmann::json(a.regime->to)}}},
          {"seconds", {{"min", a.seconds.min}, {"avg", a.seconds.avg}, {"max", a.seconds.max}}},
          {"extrapolated", a.extrapolated()},
          {"budget_note", a.extrapolated() ? nlohmann::json(budget_note(model)) : nlohmann::json("")}};
}

}  // namespace augur::calc
