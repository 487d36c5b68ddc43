#pragma once
// The names an application model's expressions may use, bound to one machine, and expressions
// compiled against them with muparser. Without a machine every operation takes 1 µs, so a file
// can be checked on its own: an undefined name, an unknown operation or a syntax error is found
// when the file is read, not when it is first plotted.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/model.hpp"
#include "node/ma_bound.hpp"

namespace mu { class Parser; }

namespace augur::app {

class Scope {
 public:
  // `size_unit` is the app model's: what d counts in t<op>(p, d), "bytes" or "ints".
  Scope(const model::Model* machine, std::string size_unit);
  ~Scope();
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

  // Defines a variable (a parameter, constant, term or node term) and returns where its value
  // lives; expressions compiled afterwards read it there.
  double& define(const std::string& name, double value = 0);
  bool defines(const std::string& name) const { return variables_.contains(name); }
  double& at(const std::string& name) { return variables_.at(name); }

  class Compiled {
   public:
    explicit Compiled(std::unique_ptr<mu::Parser> parser);
    ~Compiled();
    Compiled(Compiled&&) noexcept;
    Compiled& operator=(Compiled&&) noexcept;
    double operator()() const;  // may throw model::QueryError from an operation's law

   private:
    std::unique_ptr<mu::Parser> parser_;
  };

  // Throws std::invalid_argument with the reason (an undefined name, an operation the catalog
  // does not know, a syntax error). `check` evaluates once, which finds every such error; a scope
  // with a machine skips it, its expressions having been checked when the file was read.
  Compiled compile(const std::string& text, bool check);

  // The operations `text` calls as t<op>(…), by catalog name, and the other names it reads.
  static std::vector<std::string> operations_used(const std::string& text);
  static std::vector<std::string> variables_used(const std::string& text);
  // Whether `text` calls tloop or tloopx, the node's machine–application bound.
  static bool uses_node(const std::string& text);

  // µs per iteration of a loop on the machine's node (node/ma_bound.hpp); 1 without a machine.
  // Throws model::QueryError when the machine has no node model or a count is negative.
  double loop_microseconds(const node::LoopCounts& loop);

 private:
  struct Binding;
  const model::Model* machine_;
  double bytes_per_unit_ = 1;
  std::map<std::string, double> variables_;      // stable addresses: muparser keeps pointers
  std::vector<std::unique_ptr<Binding>> bindings_;  // one per catalog operation
  std::optional<node::NodeParams> node_;            // found at the first loop asked
};

}  // namespace augur::app
