#pragma once
// Per-rank and per-operation totals of a trace, like mpiP's report: where each rank's time went
// and which operations cost the most.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/rank_table.hpp"
#include "trace/trace.hpp"

namespace augur::trace {

struct RankTotals {
  double span = 0;  // first state's begin to last state's end
  double compute = 0, mpi = 0, wait = 0, idle = 0;
  std::uint64_t states = 0, messages_sent = 0, bytes_sent = 0;
};

struct OperationTotals {
  std::string name;
  std::uint64_t calls = 0;
  double total = 0, max = 0;
  std::uint64_t bytes = 0;  // collective payloads recorded under this operation
};

struct PhaseTotals {
  std::string name;
  double time = 0;  // the slowest rank's total time inside the phase, as the seed's time_mark
};

struct TraceSummary {
  TraceHeader header;
  int nranks = 0;
  std::uint64_t events = 0;
  double elapsed = 0;
  std::vector<RankTotals> ranks;
  std::vector<OperationTotals> operations;  // most expensive first
  std::vector<PhaseTotals> phases;          // in order of first appearance
};

TraceSummary summarize(const Trace& trace);
// Past model::kEveryRankUpTo ranks the per-rank table groups ranks alike unless `shown` asks
// for every rank (model/rank_table.hpp).
std::string format_summary(const TraceSummary& summary, model::RankRows shown = model::RankRows::fit_screen);
nlohmann::json summary_json(const TraceSummary& summary);

}  // namespace augur::trace
