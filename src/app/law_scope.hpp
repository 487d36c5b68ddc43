#pragma once
// The names a program's laws (app_program.hpp) may read, p, the model's parameters and its
// constants, bound to one value each, and the laws' values there. Reading a file checks every
// law against the first values; the simulator evaluates them at the count it runs.
#include <map>
#include <set>
#include <string>

#include "app/app_model.hpp"
#include "app/scope.hpp"

namespace augur::app {

class LawScope {
 public:
  // `settings` gives parameters (and constants to change) a value; a parameter it does not
  // name takes its one value in the file. Throws std::invalid_argument for a setting that names
  // nothing, for p (given apart) or for a parameter with several values left unset.
  LawScope(const AppModel& app, double p, const std::map<std::string, double>& settings);

  // The value of `expr`; throws std::invalid_argument with the reason it cannot have one.
  double operator()(const std::string& expr);
  // Throws std::invalid_argument when `expr` reads another name, calls an operation's time or
  // does not compile; a value that is not finite here may be one at another p.
  void check(const std::string& expr) { (void)compile(expr); }

  // A loop's index (app_program.hpp) takes `value` until released; laws reading it are evaluated
  // again at each value. Throws std::invalid_argument when the name is p, a parameter or a constant.
  void bind_index(const std::string& name, double value);
  void release_index(const std::string& name) { names_.erase(name); }

 private:
  Scope::Compiled compile(const std::string& expr);
  void check_names(const std::string& expr) const;

  Scope scope_;
  std::set<std::string> names_;
  std::map<std::string, double> values_;  // each expression without an index evaluated once
  std::set<std::string> indexes_;
  std::map<std::string, Scope::Compiled> indexed_;  // the expressions reading an index, compiled once
};

}  // namespace augur::app
