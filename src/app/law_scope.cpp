#include "app/law_scope.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "model/error.hpp"

namespace augur::app {

LawScope::LawScope(const AppModel& app, double p, const std::map<std::string, double>& settings)
    : scope_(nullptr, app.size_unit) {
  auto define = [&](const std::string& name, double value) {
    scope_.define(name, value);
    names_.insert(name);
  };
  for (const auto& [name, _] : settings) {
    if (name == "p") throw std::invalid_argument("p is the number of ranks, given apart (--ranks)");
    bool known = false;
    for (const auto& param : app.parameters) known = known || param.name == name;
    for (const auto& c : app.constants) known = known || c.name == name;
    if (!known) throw std::invalid_argument(fmt::format("--set {}: not a parameter or constant of {}", name, app.name));
  }
  define("p", p);
  for (const auto& param : app.parameters) {
    if (auto it = settings.find(param.name); it != settings.end()) {
      define(param.name, it->second);
    } else if (param.values.size() == 1) {
      define(param.name, param.values.front());
    } else {
      throw std::invalid_argument(fmt::format("parameter '{}' of {} takes {} values: give one with --set {}=NUMBER",
                                              param.name, app.name, param.values.size(), param.name));
    }
  }
  for (const auto& c : app.constants) {
    const auto it = settings.find(c.name);
    define(c.name, it == settings.end() ? c.value : it->second);
  }
}

void LawScope::check_names(const std::string& expr) const {
  for (const auto& name : Scope::variables_used(expr))
    if (!names_.contains(name) && name != "_pi" && name != "_e")
      throw std::invalid_argument(fmt::format(
          "'{}' is not p, a parameter, a constant or the index of an enclosing loop (a program's laws may use only these)",
          name));
}

Scope::Compiled LawScope::compile(const std::string& expr) {
  check_names(expr);
  if (!Scope::operations_used(expr).empty() || Scope::uses_node(expr))
    throw std::invalid_argument("a program's law gives seconds, bytes or a count; it cannot call t<op> or tloop");
  try {
    return scope_.compile(expr, true);
  } catch (const model::QueryError& e) {  // dims() of a value that is no grid
    throw std::invalid_argument(e.what());
  }
}

void LawScope::bind_index(const std::string& name, double value) {
  if (!indexes_.contains(name)) {
    if (scope_.defines(name))
      throw std::invalid_argument(fmt::format("the loop index '{}' is already p, a parameter or a constant", name));
    scope_.define(name);
    indexes_.insert(name);
  }
  scope_.at(name) = value;
  names_.insert(name);
}

double LawScope::operator()(const std::string& expr) {
  if (auto it = values_.find(expr); it != values_.end()) return it->second;
  auto compiled = indexed_.find(expr);
  bool indexed = compiled != indexed_.end();
  if (!indexed && !indexes_.empty())
    for (const auto& name : Scope::variables_used(expr)) indexed = indexed || indexes_.contains(name);
  double value = 0;
  try {
    if (!indexed) value = compile(expr)();
    else {
      if (compiled == indexed_.end()) compiled = indexed_.emplace(expr, compile(expr)).first;
      else check_names(expr);
      value = compiled->second();
    }
  } catch (const model::QueryError& e) {
    throw std::invalid_argument(e.what());
  }
  if (!std::isfinite(value)) throw std::invalid_argument(fmt::format("its value is {}", value));
  if (!indexed) values_.emplace(expr, value);
  return value;
}

}  // namespace augur::app
