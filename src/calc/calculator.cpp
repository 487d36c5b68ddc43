#include "calc/calculator.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "calc/levels.hpp"
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

// An operation a machine of nodes measured at some levels only, asked at another.
[[noreturn]] void not_measured_here(const model::Model& model, const std::string& op, timing::NodesAndRanks shape) {
  std::string where = model.nodes->on_node.contains(op) ? "on one node" : "";
  for (const auto& [k, placed] : model.nodes->placements)
    if (placed.contains(op)) where += fmt::format("{}at {} ranks a node", where.empty() ? "" : ", ", k);
  throw model::QueryError(fmt::format("{}: machine '{}' measured it only {}, not at {} node{} of {} rank{} (--ranks-per-node)", op,
                                      model.machine.name, where, shape.nodes, shape.nodes == 1 ? "" : "s", shape.ranks_per_node,
                                      shape.ranks_per_node == 1 ? "" : "s"));
}

}  // namespace

Answer ask(const model::Model& model, const Question& q, const timing::Placement& placement) {
  const auto& asked = model.at_any_level(q.op);
  Answer a;
  a.question = q;
  a.question.op = asked.name;  // the model's own name when the question used MPI's
  a.d = q.bytes / model.units.bytes_per_size_unit();
  if (model.nodes) {
    a.shape = placement.shape_of_first(q.p < std::numeric_limits<int>::max() ? static_cast<int>(q.p) : std::numeric_limits<int>::max());
    if (auto c = composed_answer(model, asked.name, q.p, placement, *a.shape, q.bytes)) {
      a.equation = std::move(c->equation);
      a.seconds = c->seconds;
      a.level = std::move(c->level);
      return a;
    }
  }
  const auto* at_placement = a.shape ? law_at_placement(model, asked.name, *a.shape, a.level) : nullptr;
  if (!at_placement && !model.find(asked.name)) not_measured_here(model, asked.name, *a.shape);
  const auto& op = at_placement ? *at_placement : asked;
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
  const std::string where = a.shape ? fmt::format("Placement: {} node{} × {} rank{} a node, {}\n", a.shape->nodes,
                                                   a.shape->nodes == 1 ? "" : "s", a.shape->ranks_per_node,
                                                   a.shape->ranks_per_node == 1 ? "" : "s", a.level)
                                     : std::string();
  const std::string law = a.regime ? fmt::format("    (t in {}, p processes, d in {}; regime {})\n", u.time, u.size, range_text(*a.regime))
                                   : std::string("    (each phase by its level's law; docs/nodes.md, \"Composition\")\n");
  return fmt::format(
      "{} ({}) on {}: p = {}, d = {}\n"
      "{}t = {}\n{}"
      "Times: min={} avg={} max={}\n",
      a.question.op, model::mpi_name(a.question.op), model.machine.name, a.question.p, d_text, where, a.equation, law,
      model::format_seconds(a.seconds.min), model::format_seconds(a.seconds.avg),
      model::format_seconds(a.seconds.max)) + extrapolation_note(model, a);
}

nlohmann::json answer_to_json(const model::Model& model, const Answer& a) {
  nlohmann::json regime = nullptr;
  if (a.regime)
    regime = {{"from", a.regime->from}, {"to", std::isinf(a.regime->to) ? nlohmann::json(nullptr) : nlohmann::json(a.regime->to)}};
  nlohmann::json j = {{"machine", model.machine.name},
          {"operation", a.question.op},
          {"p", a.question.p},
          {"bytes", a.question.bytes},
          {"d", a.d},
          {"units", {{"time", model.units.time}, {"size", model.units.size}, {"int_bytes", model.units.int_bytes}}},
          {"equation", a.equation},
          {"regime", regime},
          {"seconds", {{"min", a.seconds.min}, {"avg", a.seconds.avg}, {"max", a.seconds.max}}},
          {"extrapolated", a.extrapolated()},
          {"budget_note", a.extrapolated() ? nlohmann::json(budget_note(model)) : nlohmann::json("")}};
  if (a.shape) j["placement"] = {{"nodes", a.shape->nodes}, {"ranks_per_node", a.shape->ranks_per_node}, {"level", a.level}};
  return j;
}

}  // namespace augur::calc
