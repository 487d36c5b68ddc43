#include "app/evaluate.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/scope.hpp"
#include "model/error.hpp"
#include "node/ma_bound.hpp"

namespace augur::app {
namespace {

struct NodeTerm {
  const char* name;
  double value;         // µs; NaN when the machine does not say
  const char* missing;  // what the model lacks then
};

std::vector<NodeTerm> node_terms(const model::Compute& c) {
  const double nan = std::nan("");
  return {{"tcompute", c.step_seconds() * 1e6, ""},
          {"tflop", c.flops > 0 ? 1e6 / c.flops : nan, "compute.flops"},
          {"tbyte", c.memory_bandwidth > 0 ? 1e6 / c.memory_bandwidth : nan, "compute.memory_bandwidth"}};
}

// Every combination of the parameters other than p, the first parameter varying slowest.
std::vector<std::vector<double>> combinations(const std::vector<Parameter>& params) {
  std::vector<std::vector<double>> all{{}};
  for (const auto& param : params) {
    std::vector<std::vector<double>> next;
    for (const auto& combo : all)
      for (double v : param.values) {
        next.push_back(combo);
        next.back().push_back(v);
      }
    all = std::move(next);
  }
  return all;
}

// The app model with the overrides applied: a parameter set to one value, constants replaced.
AppModel overridden(AppModel app, const Overrides& overrides, std::map<std::string, double>& node_overrides) {
  for (const auto& [name, value] : overrides) {
    bool used = name == "tcompute" || name == "tflop" || name == "tbyte";
    if (used) node_overrides[name] = value;
    if (name == "p") {
      app.processes.values = {value};
      used = true;
    }
    for (auto& param : app.parameters)
      if (param.name == name) {
        param.values = {value};
        used = true;
      }
    for (auto& c : app.constants)
      if (c.name == name) {
        c.value = value;
        used = true;
      }
    if (!used) throw std::invalid_argument("--set " + name + ": not a parameter, constant or node term of " + app.name);
  }
  return app;
}

// The app model bound to one machine: its scope, and the terms and phases compiled in order.
class Instance {
 public:
  Instance(const AppModel& app, const model::Model& machine, const std::map<std::string, double>& node_overrides,
        std::vector<std::string>& notes)
      : app_(app), machine_(machine), scope_(&machine, app.size_unit) {
    scope_.define("p", 1);
    for (const auto& param : app.parameters) scope_.define(param.name);
    for (const auto& c : app.constants) scope_.define(c.name, c.value);
    define_node_terms(node_overrides, notes);
    for (const auto& t : app.terms) {
      terms_.push_back(compile(t));
      scope_.define(t.name);
    }
    for (const auto& ph : app.phases) phases_.push_back(compile(ph));
  }

  // Phases in µs at p with the other parameters at `values`.
  std::vector<double> phases(double p, const std::vector<double>& values) {
    scope_.at("p") = p;
    for (std::size_t i = 0; i < values.size(); ++i) scope_.at(app_.parameters[i].name) = values[i];
    for (std::size_t i = 0; i < terms_.size(); ++i) scope_.at(app_.terms[i].name) = run(terms_[i], app_.terms[i], p, values);
    std::vector<double> out;
    for (std::size_t i = 0; i < phases_.size(); ++i) out.push_back(run(phases_[i], app_.phases[i], p, values));
    return out;
  }

 private:
  [[noreturn]] void fail(const Definition& d, const std::string& reason) const {
    throw model::ModelError(app_.where(nlohmann::json(d.expr).dump()), d.field, reason);
  }

  void define_node_terms(const std::map<std::string, double>& overrides, std::vector<std::string>& notes) {
    for (const auto& term : node_terms(machine_.compute)) {
      auto it = overrides.find(term.name);
      scope_.define(term.name, it != overrides.end() ? it->second : term.value);
      if (it == overrides.end() && std::string(term.name) == "tcompute" && !machine_.compute.knows_step() && uses(term.name))
        notes.push_back(fmt::format("{} has no compute step: tcompute is the seed's placeholder, {} µs; give one with --set tcompute=US",
                                    machine_.machine.name, model::kDefaultSecondsPerStep * 1e6));
    }
  }

  bool uses(const std::string& name) const {
    for (const auto* defs : {&app_.terms, &app_.phases})
      for (const auto& d : *defs)
        for (const auto& used : Scope::variables_used(d.expr))
          if (used == name) return true;
    return false;
  }

  // tloop needs the machine's node; say so once, where it is used, rather than at every point.
  void check_node(const Definition& d) const {
    try {
      node::node_for(machine_);
    } catch (const model::QueryError& e) {
      fail(d, fmt::format("tloop: {}", e.what()));
    }
  }

  Scope::Compiled compile(const Definition& d) {
    for (const auto& op : Scope::operations_used(d.expr))
      if (!machine_.find(op)) fail(d, fmt::format("machine '{}' has no model of '{}' (t{})", machine_.machine.name, op, op));
    if (Scope::uses_node(d.expr)) check_node(d);
    for (const auto& name : Scope::variables_used(d.expr))
      if (scope_.defines(name) && std::isnan(scope_.at(name)))
        fail(d, fmt::format("{} needs the machine's {}, which the model of '{}' does not give; set it with --set {}=US", name,
                            name == "tflop" ? "compute.flops" : "compute.memory_bandwidth", machine_.machine.name, name));
    return scope_.compile(d.expr, false);
  }

  double run(const Scope::Compiled& expr, const Definition& d, double p, const std::vector<double>& values) const {
    try {
      return expr();
    } catch (const model::QueryError& e) {
      std::string at = fmt::format("p = {:g}", p);
      for (std::size_t i = 0; i < values.size(); ++i) at += fmt::format(", {} = {:g}", app_.parameters[i].name, values[i]);
      fail(d, fmt::format("on {} at {}: {}", machine_.machine.name, at, e.what()));
    }
  }

  const AppModel& app_;
  const model::Model& machine_;
  Scope scope_;
  std::vector<Scope::Compiled> terms_, phases_;
};

double sum(const std::vector<double>& values) {
  double total = 0;
  for (double v : values) total += v;
  return total;
}

Series series_of(Instance& bound, const AppModel& app, const std::string& machine, const std::vector<double>& values) {
  Series s{machine, values, {}, 0};
  const double base = sum(bound.phases(1, values));
  for (double p : app.processes.values) {
    Row row{p, bound.phases(p, values), 0, 0};
    row.total = sum(row.phases);
    row.speedup = base / row.total;
    s.rows.push_back(std::move(row));
    if (s.rows.back().total < s.rows[s.best].total) s.best = s.rows.size() - 1;
  }
  return s;
}

}  // namespace

std::string series_label(const Evaluation& evaluation, const Series& series) {
  std::string label = series.machine;
  for (std::size_t i = 0; i < series.parameters.size(); ++i)
    label += fmt::format(" {}={:g}", evaluation.parameter_names[i], series.parameters[i]);
  return label;
}

Evaluation evaluate(const AppModel& original, const std::vector<const model::Model*>& machines, const Overrides& overrides) {
  std::map<std::string, double> node_overrides;
  const AppModel app = overridden(original, overrides, node_overrides);
  Evaluation out;
  for (const auto& param : app.parameters) out.parameter_names.push_back(param.name);
  for (const auto& phase : app.phases) out.phase_names.push_back(phase.name);
  out.doubling = app.processes.doubling;
  for (const auto* machine : machines) {
    Instance bound(app, *machine, node_overrides, out.notes);
    for (const auto& values : combinations(app.parameters))
      out.series.push_back(series_of(bound, app, machine->machine.name, values));
  }
  return out;
}

}  // namespace augur::app
