#include "revprof/ledger.hpp"

#include <algorithm>
#include <cstdint>

namespace augur::revprof {

OperationTotals& Ledger::totals_of(std::string_view op) {
  const auto key = reinterpret_cast<std::uintptr_t>(op.data());
  auto& recent = recent_[(key ^ key >> 6) % recent_.size()];
  if (recent.address == op.data() && recent.entry && recent.entry->first == op) return recent.entry->second;
  return remember(recent, op);
}

// Kept out of line so the common path above stays a few instructions without a stack frame.
[[gnu::noinline]] OperationTotals& Ledger::remember(Recent& recent, std::string_view op) {
  auto it = ops_.find(op);
  if (it == ops_.end()) it = ops_.emplace(std::string(op), OperationTotals{}).first;
  recent = {op.data(), &*it};
  return it->second;
}

void Ledger::call(std::string_view op, double begin, double end, double waiting, double bytes) {
  auto& t = totals_of(op);
  double span = std::max(0.0, end - begin);
  double waited = std::clamp(waiting, 0.0, span);
  ++t.count;
  t.bytes += bytes;
  t.seconds += span;
  t.waiting += waited;
  mpi_ += span;
  waiting_ += waited;
}

void Ledger::not_priced(std::string_view op, std::string_view reason) {
  auto it = not_priced_.find(op);
  if (it == not_priced_.end()) it = not_priced_.emplace(std::string(op), Unpriced{0, std::string(reason)}).first;
  ++it->second.calls;
}

nlohmann::json Ledger::to_json(int rank, double finish) const {
  nlohmann::json ops = nlohmann::json::object();
  for (const auto& [name, t] : ops_)
    ops[name] = {{"count", t.count}, {"bytes", t.bytes}, {"seconds", t.seconds}, {"waiting", t.waiting}};
  nlohmann::json unpriced = nlohmann::json::object();
  for (const auto& [name, u] : not_priced_) unpriced[name] = {{"calls", u.calls}, {"reason", u.reason}};
  return {{"rank", rank},
          {"finish", finish},
          {"compute", compute_},
          {"mpi", mpi_},
          {"waiting", waiting_},
          {"operations", ops},
          {"unmodelled", unmodelled_},
          {"not_priced", unpriced}};
}

}  // namespace augur::revprof
