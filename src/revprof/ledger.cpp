#include "revprof/ledger.hpp"

#include <algorithm>

namespace augur::revprof {

void Ledger::call(std::string_view op, double begin, double end, double waiting, double bytes) {
  auto cached = by_address_.find(op.data());
  if (cached == by_address_.end() || cached->second->first != op) {
    auto it = ops_.find(op);
    if (it == ops_.end()) it = ops_.emplace(std::string(op), OperationTotals{}).first;
    cached = by_address_.insert_or_assign(op.data(), it).first;
  }
  auto& t = cached->second->second;
  double span = std::max(0.0, end - begin);
  double waited = std::clamp(waiting, 0.0, span);
  ++t.count;
  t.bytes += bytes;
  t.seconds += span;
  t.waiting += waited;
  mpi_ += span;
  waiting_ += waited;
}

nlohmann::json Ledger::to_json(int rank, double finish) const {
  nlohmann::json ops = nlohmann::json::object();
  for (const auto& [name, t] : ops_)
    ops[name] = {{"count", t.count}, {"bytes", t.bytes}, {"seconds", t.seconds}, {"waiting", t.waiting}};
  return {{"rank", rank},
          {"finish", finish},
          {"compute", compute_},
          {"mpi", mpi_},
          {"waiting", waiting_},
          {"operations", ops},
          {"unmodelled", unmodelled_}};
}

}  // namespace augur::revprof
