#include "learn/aligned.hpp"

#include <fmt/format.h>

#include "sim/program/message_ops.hpp"

namespace augur::learn {

std::string runs_text(const std::vector<GroupRun>& at) {
  std::string out;
  for (const auto& g : at) out += fmt::format("{}p = {}", out.empty() ? "" : ", ", g.run->p);
  return out;
}

std::string op_name(const sim::Op& op, const RankSequences& seq) {
  if (const auto* m = sim::message_op_of(op.kind, op.mode)) return std::string(m->word);
  return op.kind == sim::OpKind::collective ? seq.names.at(op.name) : "compute";
}

double mean(const std::vector<double>& v) {
  double s = 0;
  for (const auto x : v) s += x;
  return v.empty() ? 0 : s / double(v.size());
}

}  // namespace augur::learn
