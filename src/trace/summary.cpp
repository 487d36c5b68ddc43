#include "trace/summary.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "model/rank_table.hpp"
#include "model/units.hpp"

namespace augur::trace {

namespace {

void add_state(RankTotals& rank, const State& s) {
  double d = s.end - s.begin;
  switch (s.kind) {
    case StateKind::compute: rank.compute += d; break;
    case StateKind::mpi: rank.mpi += d; break;
    case StateKind::wait: rank.wait += d; break;
    case StateKind::idle: rank.idle += d; break;
  }
}

RankTotals rank_totals(const RankTrace& r, std::vector<OperationTotals>& by_name) {
  RankTotals totals;
  totals.states = r.states.size();
  if (!r.states.empty()) totals.span = r.states.back().end - r.states.front().begin;
  for (const State& s : r.states) {
    add_state(totals, s);
    if (s.kind != StateKind::mpi) continue;
    auto& op = by_name[s.op];
    double d = s.end - s.begin;
    ++op.calls;
    op.total += d;
    op.max = std::max(op.max, d);
  }
  for (const auto& c : r.collectives) by_name[c.op].bytes += c.bytes;
  totals.messages_sent = r.sends.size();
  for (const auto& m : r.sends) totals.bytes_sent += m.bytes;
  return totals;
}

// Time inside each phase per rank, summed over repeated begin/end pairs.
std::vector<PhaseTotals> phase_totals(const Trace& trace) {
  std::vector<PhaseTotals> phases;
  std::vector<int> slot(trace.names.size(), -1);
  for (const auto& r : trace.ranks) {
    std::vector<double> open(trace.names.size(), -1), inside(trace.names.size(), 0);
    for (const auto& p : r.phases) {
      if (slot[p.name] < 0) {
        slot[p.name] = static_cast<int>(phases.size());
        phases.push_back({trace.names[p.name], 0});
      }
      if (p.begin) open[p.name] = p.time;
      else if (open[p.name] >= 0) inside[p.name] += p.time - std::exchange(open[p.name], -1);
    }
    for (std::size_t n = 0; n < slot.size(); ++n)
      if (slot[n] >= 0) phases[slot[n]].time = std::max(phases[slot[n]].time, inside[n]);
  }
  return phases;
}

}  // namespace

TraceSummary summarize(const Trace& trace) {
  TraceSummary out;
  out.header = trace.header;
  out.nranks = trace.nranks();
  out.events = trace.event_count();
  out.elapsed = trace.end_time() - trace.start_time();
  std::vector<OperationTotals> by_name(trace.names.size());
  for (std::size_t i = 0; i < by_name.size(); ++i) by_name[i].name = trace.names[i];
  for (const auto& r : trace.ranks) out.ranks.push_back(rank_totals(r, by_name));
  for (auto& op : by_name)
    if (op.calls > 0 || op.bytes > 0) out.operations.push_back(std::move(op));
  std::sort(out.operations.begin(), out.operations.end(),
            [](const auto& a, const auto& b) { return a.total > b.total; });
  out.phases = phase_totals(trace);
  return out;
}

namespace {

std::string rank_table(const TraceSummary& s, model::RankRows shown) {
  std::vector<model::RankRow> rows;
  for (std::size_t r = 0; r < s.ranks.size(); ++r) {
    const auto& t = s.ranks[r];
    double pct = t.span > 0 ? 100 * (t.mpi + t.wait) / t.span : 0;
    rows.push_back({static_cast<int>(r), t.span,
                    fmt::format("{:>12} {:>12} {:>12} {:>12} {:>12} {:>6.1f} {:>10} {:>12}", model::format_seconds(t.span),
                                model::format_seconds(t.compute), model::format_seconds(t.mpi),
                                model::format_seconds(t.wait), model::format_seconds(t.idle), pct, t.messages_sent,
                                model::format_bytes(static_cast<double>(t.bytes_sent)))});
  }
  return model::rank_table(fmt::format("{:>12} {:>12} {:>12} {:>12} {:>12} {:>6} {:>10} {:>12}", "span", "compute",
                                       "MPI", "wait", "idle", "MPI %", "sends", "bytes"),
                           rows, s.ranks.size(), shown);
}

std::string operation_table(const TraceSummary& s) {
  std::string out = fmt::format("{:<26} {:>10} {:>12} {:>12} {:>12} {:>12}\n", "operation", "calls", "total", "mean",
                                "max", "bytes");
  for (const auto& op : s.operations)
    out += fmt::format("{:<26} {:>10} {:>12} {:>12} {:>12} {:>12}\n", model::mpi_name(op.name), op.calls,
                       model::format_seconds(op.total), model::format_seconds(op.calls ? op.total / op.calls : 0.0),
                       model::format_seconds(op.max), model::format_bytes(static_cast<double>(op.bytes)));
  return out;
}

}  // namespace

std::string format_summary(const TraceSummary& s, model::RankRows shown) {
  std::string out = fmt::format("{} trace, machine {}, {} ranks, {} events, elapsed {}\n\n", to_string(s.header.mode),
                                s.header.machine.empty() ? "unknown" : s.header.machine, s.nranks, s.events,
                                model::format_seconds(s.elapsed));
  out += rank_table(s, shown) + "\n" + operation_table(s);
  if (!s.phases.empty()) {
    out += fmt::format("\n{:<26} {:>12}\n", "phase", "time");
    for (const auto& p : s.phases) out += fmt::format("{:<26} {:>12}\n", p.name, model::format_seconds(p.time));
  }
  return out;
}

nlohmann::json summary_json(const TraceSummary& s) {
  nlohmann::json j = {{"mode", to_string(s.header.mode)}, {"machine", s.header.machine},
                      {"ranks", s.nranks}, {"events", s.events}, {"elapsed", s.elapsed}};
  j["per_rank"] = nlohmann::json::array();
  for (std::size_t r = 0; r < s.ranks.size(); ++r) {
    const auto& t = s.ranks[r];
    j["per_rank"].push_back({{"rank", r}, {"span", t.span}, {"compute", t.compute},
                             {"mpi", t.mpi}, {"wait", t.wait}, {"idle", t.idle},
                             {"states", t.states}, {"messages_sent", t.messages_sent},
                             {"bytes_sent", t.bytes_sent}});
  }
  j["per_operation"] = nlohmann::json::array();
  for (const auto& op : s.operations)
    j["per_operation"].push_back({{"name", op.name}, {"calls", op.calls}, {"total", op.total},
                                  {"max", op.max}, {"bytes", op.bytes}});
  j["phases"] = nlohmann::json::array();
  for (const auto& p : s.phases) j["phases"].push_back({{"name", p.name}, {"time", p.time}});
  return j;
}

}  // namespace augur::trace
