#include "sim/report/report.hpp"

#include <algorithm>
#include <numeric>

namespace augur::sim {
namespace {

nlohmann::json rank_json(int rank, const RankTotals& t) {
  return {{"rank", rank},         {"finish", t.finish},     {"compute", t.compute},
          {"mpi", t.mpi},         {"waiting", t.waiting},   {"operations", nlohmann::json::object()},
          {"unmodelled", nlohmann::json::object()}};
}

// All ranks, or the slowest kListedRanks of them in rank order.
std::vector<int> listed_ranks(const std::vector<RankTotals>& ranks) {
  std::vector<int> order(ranks.size());
  std::iota(order.begin(), order.end(), 0);
  if (order.size() <= kListedRanks) return order;
  std::nth_element(order.begin(), order.begin() + kListedRanks, order.end(),
                   [&](int a, int b) { return ranks[a].finish > ranks[b].finish; });
  order.resize(kListedRanks);
  std::sort(order.begin(), order.end());
  return order;
}

}  // namespace

nlohmann::json make_report(const Result& result, nlohmann::json run, double wall_seconds) {
  nlohmann::json ranks = nlohmann::json::array();
  for (int r : listed_ranks(result.ranks)) ranks.push_back(rank_json(r, result.ranks[r]));
  nlohmann::json ops = nlohmann::json::object();
  for (const auto& [name, t] : result.operations)
    ops[name] = {{"count", t.count}, {"bytes", t.bytes}, {"seconds", t.seconds}, {"waiting", t.waiting}};
  const double rate = wall_seconds > 0 ? static_cast<double>(result.events) / wall_seconds : 0;
  return {{"predicted_seconds", result.predicted},
          {"run", std::move(run)},
          {"rank_count", result.ranks.size()},
          {"ranks", std::move(ranks)},
          {"operations", std::move(ops)},
          {"unmodelled", nlohmann::json::object()},
          {"extrapolated", nlohmann::json::object()},
          {"warnings", result.warnings},
          {"simulation",
           {{"events", result.events},
            {"operations", result.operations_run},
            {"messages", result.messages},
            {"wildcard_receives_replayed", result.replayed_wildcards},
            {"matches_changed", result.changed_matches},
            {"wall_seconds", wall_seconds},
            {"events_per_second", rate}}}};
}

}  // namespace augur::sim
