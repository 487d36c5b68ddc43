#include "learn/app_phases.hpp"

#include <algorithm>
#include <map>
#include <regex>
#include <string>

namespace augur::learn {
namespace {

using Sums = std::map<std::string, std::string>;  // phase name → expression in µs

void add(Sums& sums, const std::string& phase, const std::string& term) {
  auto& s = sums[phase];
  s += (s.empty() ? "" : " + ") + term;
}

// The machine operation a call is priced by in a design-time model, or "" for none.
std::string priced_as(const std::string& op) {
  if (op == "send" || op == "ssend" || op == "bsend" || op == "rsend" || op == "isend" || op == "sendrecv") return "send";
  if (op == "recv" || op == "irecv" || op == "wait" || op.rfind("comm_", 0) == 0) return "";
  return op;
}

void add_call(Sums& sums, const app::ProgramNode& n) {
  const auto op = priced_as(n.op);
  if (op.empty()) return;
  const std::string size = n.bytes.expr.empty() ? "0" : n.bytes.expr;
  add(sums, op, op == "barrier" ? "tbarrier(p)" : "t" + op + "(p, " + size + ")");
}

// A loop's index has no value in a design-time model: its body is priced at the mean index,
// exact for the sizes and computes augur learn makes linear in it.
std::string at_mean_index(const std::string& expr, const app::ProgramNode& loop) {
  if (loop.index.empty()) return expr;
  return std::regex_replace(expr, std::regex("\\b" + loop.index + "\\b"), "((" + loop.times.expr + ") - 1) / 2");
}

Sums sums_of(const std::vector<app::ProgramNode>& body) {
  Sums sums;
  for (const auto& n : body) {
    switch (n.kind) {
      case app::ProgramNode::Kind::compute: add(sums, "compute", "1e6 * (" + n.seconds.expr + ")"); break;
      case app::ProgramNode::Kind::operation: add_call(sums, n); break;
      case app::ProgramNode::Kind::repeat:
        for (const auto& [phase, expr] : sums_of(n.body))
          add(sums, phase, "(" + n.times.expr + ") * (" + at_mean_index(expr, n) + ")");
        break;
      case app::ProgramNode::Kind::until:  // its mean count, when the model says it
        for (const auto& [phase, expr] : sums_of(n.body))
          add(sums, phase, "(" + (n.times.expr.empty() ? std::string("1") : n.times.expr) + ") * (" + expr + ")");
        break;
    }
  }
  return sums;
}

}  // namespace

std::vector<app::Definition> phases_of(const app::AppProgram& program) {
  std::map<std::string, std::vector<std::string>> by_phase;  // each group's expression of the phase
  for (const auto& group : program.groups)
    for (const auto& [phase, expr] : sums_of(group.body)) {
      auto& exprs = by_phase[phase];
      if (std::find(exprs.begin(), exprs.end(), expr) == exprs.end()) exprs.push_back(expr);
    }
  std::vector<app::Definition> out;
  for (const auto& [phase, exprs] : by_phase) {
    std::string expr = exprs.front();
    if (exprs.size() > 1) {
      expr = "max(";
      for (std::size_t i = 0; i < exprs.size(); ++i) expr += (i ? ", " : "") + exprs[i];
      expr += ")";
    }
    out.push_back({phase, expr, "phases[" + std::to_string(out.size()) + "].expr"});
  }
  if (out.empty()) out.push_back({"compute", "0", "phases[0].expr"});
  return out;
}

}  // namespace augur::learn
