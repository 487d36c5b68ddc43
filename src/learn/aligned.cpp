#include "learn/aligned.hpp"

#include <fmt/format.h>

namespace augur::learn {

std::string runs_text(const std::vector<GroupRun>& at) {
  std::string out;
  for (const auto& g : at) out += fmt::format("{}p = {}", out.empty() ? "" : ", ", g.run->p);
  return out;
}

std::string op_name(const sim::Op& op, const RankSequences& seq) {
  using sim::OpKind;
  using timing::SendMode;
  switch (op.kind) {
    case OpKind::send:
      return op.mode == SendMode::synchronous ? "ssend"
             : op.mode == SendMode::buffered  ? "bsend"
             : op.mode == SendMode::ready     ? "rsend"
                                              : "send";
    case OpKind::isend: return "isend";
    case OpKind::recv: return "recv";
    case OpKind::irecv: return "irecv";
    case OpKind::sendrecv: return "sendrecv";
    case OpKind::wait: return "wait";
    case OpKind::collective: return seq.names.at(op.name);
    default: return "compute";
  }
}

double mean(const std::vector<double>& v) {
  double s = 0;
  for (const auto x : v) s += x;
  return v.empty() ? 0 : s / double(v.size());
}

}  // namespace augur::learn
