#include "app/scope.hpp"

#include <cctype>
#include <cmath>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <muParser.h>

#include "app/process_grid.hpp"
#include "model/catalog.hpp"
#include "model/error.hpp"

namespace augur::app {
namespace {

// As in model files: log is the natural logarithm, the seeds' gnuplot and C meaning.
double natural_log(double x) { return std::log(x); }
double floor_of(double x) { return std::floor(x); }
double ceil_of(double x) { return std::ceil(x); }
// mod(x, m): x − m·floor(x / m), in [0, m) for m > 0 whatever the sign of x, as a rank wraps.
double modulo(double x, double m) { return m == 0 ? std::nan("") : x - m * std::floor(x / m); }
// dims(p, k, i): side i of MPI_Dims_create's k-dimensional grid of p processes.
double grid_dims(double p, double dims, double dim) {
  try {
    return grid_side(p, dims, dim);
  } catch (const std::invalid_argument& e) {
    throw model::QueryError(e.what());
  }
}

// muparser's functions, with log, floor and ceil as redefined below, and mod.
const std::set<std::string, std::less<>> kBuiltins{"sin",  "cos",   "tan",   "asin", "acos", "atan", "sinh",
                                                   "cosh", "tanh",  "asinh", "acosh", "atanh", "log2", "log10",
                                                   "log",  "ln",    "exp",   "sqrt", "sign", "rint", "abs",
                                                   "floor", "ceil", "min",   "max",  "sum",  "avg", "mod"};

// The node's machine–application bound, in µs per iteration: the five counts of a simple loop,
// or all ten (docs/node-model.md).
double tloop(void* scope, double fa, double fm, double fma, double l, double s) {
  return static_cast<Scope*>(scope)->loop_microseconds({fa, fm, fma, 0, 0, l, s, 0, 0, 0});
}
double tloopx(void* scope, double fa, double fm, double fma, double fdiv, double fsqrt, double l, double s, double td,
              double ml, double ms) {
  return static_cast<Scope*>(scope)->loop_microseconds({fa, fm, fma, fdiv, fsqrt, l, s, td, ml, ms});
}
const std::set<std::string, std::less<>> kNodeFunctions{"tloop", "tloopx"};

bool is_identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Every identifier of `text` with whether a '(' follows it (a call).
std::vector<std::pair<std::string, bool>> identifiers(const std::string& text) {
  std::vector<std::pair<std::string, bool>> found;
  for (std::size_t i = 0; i < text.size();) {
    const bool after_number = i > 0 && (std::isdigit(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '.');
    if (!is_identifier_start(text[i]) || after_number) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && is_identifier_char(text[end])) ++end;
    std::size_t next = end;
    while (next < text.size() && std::isspace(static_cast<unsigned char>(text[next]))) ++next;
    found.emplace_back(text.substr(i, end - i), next < text.size() && text[next] == '(');
    i = end;
  }
  return found;
}

}  // namespace

struct Scope::Binding {
  const Scope* scope;
  const model::OperationInfo* info;

  double seconds(double p, double d) const {
    const auto* m = scope->machine_;
    if (!m) return 1;
    const auto& op = m->at(info->name);  // throws QueryError naming what the machine has
    return m->seconds(op, p, d * scope->bytes_per_unit_) * 1e6;
  }
  static double call2(void* self, double p, double d) { return static_cast<Binding*>(self)->seconds(p, d); }
  static double call1(void* self, double p) { return static_cast<Binding*>(self)->seconds(p, 0); }
};

Scope::Scope(const model::Model* machine, std::string size_unit) : machine_(machine) {
  if (machine && size_unit == "ints") bytes_per_unit_ = machine->units.int_bytes;
  for (const auto& info : model::operation_catalog()) bindings_.push_back(std::make_unique<Binding>(Binding{this, &info}));
}

Scope::~Scope() = default;

double& Scope::define(const std::string& name, double value) {
  auto [it, added] = variables_.emplace(name, value);
  if (!added) throw std::invalid_argument("'" + name + "' is defined twice");
  return it->second;
}

Scope::Compiled::Compiled(std::unique_ptr<mu::Parser> parser) : parser_(std::move(parser)) {}
Scope::Compiled::~Compiled() = default;
Scope::Compiled::Compiled(Compiled&&) noexcept = default;
Scope::Compiled& Scope::Compiled::operator=(Compiled&&) noexcept = default;
double Scope::Compiled::operator()() const { return parser_->Eval(); }

std::vector<std::string> Scope::operations_used(const std::string& text) {
  std::vector<std::string> ops;
  for (const auto& [name, call] : identifiers(text))
    if (call && name.size() > 1 && name[0] == 't' && model::find_operation_info(name.substr(1))) ops.push_back(name.substr(1));
  return ops;
}

std::vector<std::string> Scope::variables_used(const std::string& text) {
  std::vector<std::string> names;
  for (const auto& [name, call] : identifiers(text))
    if (!call) names.push_back(name);
  return names;
}

bool Scope::uses_node(const std::string& text) {
  for (const auto& [name, call] : identifiers(text))
    if (call && kNodeFunctions.contains(name)) return true;
  return false;
}

double Scope::loop_microseconds(const node::LoopCounts& loop) {
  if (!machine_) return 1;
  for (double count : {loop.f_a, loop.f_m, loop.f_ma, loop.f_div, loop.f_sqrt, loop.l, loop.s, loop.t_d})
    if (count < 0) throw model::QueryError("tloop: an operation count is negative");
  if (loop.m_l < 0 || loop.m_l > 1 || loop.m_s < 0 || loop.m_s > 1)
    throw model::QueryError("tloopx: a miss rate is outside 0..1");
  if (!node_) node_ = node::node_for(*machine_);
  return node::ma_bound(loop, *node_).seconds * 1e6;
}

Scope::Compiled Scope::compile(const std::string& text, bool check) {
  // Names are checked here first, so the message says what the name is not.
  for (const auto& [name, call] : identifiers(text)) {
    if (call || variables_.contains(name) || name == "_pi" || name == "_e") continue;
    throw std::invalid_argument(fmt::format("'{}' is not defined (not a parameter, constant, earlier term or node term)", name));
  }
  for (const auto& [name, call] : identifiers(text)) {
    if (!call || kBuiltins.contains(name) || kNodeFunctions.contains(name) || name == "dims") continue;
    const bool operation = name.size() > 1 && name[0] == 't';
    if (operation && model::find_operation_info(name.substr(1))) continue;
    throw std::invalid_argument(operation ? fmt::format("'{}': no operation '{}' in the catalog (docs/model-format.md)", name,
                                                        name.substr(1))
                                          : fmt::format("'{}' is not a function", name));
  }
  auto parser = std::make_unique<mu::Parser>();
  try {
    for (auto& [name, value] : variables_) parser->DefineVar(name, &value);
    parser->DefineFun("log", natural_log);
    parser->DefineFun("floor", floor_of);
    parser->DefineFun("ceil", ceil_of);
    parser->DefineFun("mod", modulo);
    parser->DefineFun("dims", grid_dims);
    for (const auto& b : bindings_) {
      const auto name = fmt::format("t{}", b->info->name);
      if (b->info->cls == model::OperationClass::barrier) parser->DefineFunUserData(name, Binding::call1, b.get(), false);
      else parser->DefineFunUserData(name, Binding::call2, b.get(), false);
    }
    parser->DefineFunUserData("tloop", tloop, this, false);
    parser->DefineFunUserData("tloopx", tloopx, this, false);
    parser->SetExpr(text);
    if (check) parser->Eval();
  } catch (const mu::Parser::exception_type& e) {
    throw std::invalid_argument(e.GetMsg());
  }
  return Compiled(std::move(parser));
}

}  // namespace augur::app
