#include "analyze/shares.hpp"

#include <algorithm>

#include "model/units.hpp"

namespace augur::analyze {

std::string readable_operation(const std::string& op) {
  if (op == "compute" || op == "message" || op == "untraced" || op == "WAIT" || op == "IDLE" || op == "COMPUTE")
    return op;
  return model::mpi_name(op);
}

PhaseLookup::PhaseLookup(const trace::Trace& trace) : trace_(trace), changes_(trace.ranks.size()) {
  for (std::size_t r = 0; r < trace.ranks.size(); ++r) {
    std::vector<trace::NameIndex> open;
    for (const auto& mark : trace.ranks[r].phases) {
      if (mark.begin) open.push_back(mark.name);
      else if (auto it = std::find(open.rbegin(), open.rend(), mark.name); it != open.rend())
        open.erase(std::next(it).base());
      changes_[r].push_back({mark.time, open.empty() ? -1 : std::int64_t(open.back())});
      empty_ = false;
    }
  }
}

std::int64_t PhaseLookup::name_at(int rank, double time) const {
  const auto& c = changes_[rank];
  auto it = std::upper_bound(c.begin(), c.end(), time, [](double t, const Change& ch) { return t < ch.time; });
  return it == c.begin() ? -1 : std::prev(it)->name;
}

std::string_view PhaseLookup::at(int rank, double time) const {
  const auto name = name_at(rank, time);
  return name < 0 ? std::string_view{} : std::string_view(trace_.names[name]);
}

namespace {

std::string operation_of(const trace::Trace& t, const Segment& s) {
  switch (s.kind) {
    case SegmentKind::compute: return "compute";
    case SegmentKind::message: return "message";
    case SegmentKind::gap: return "untraced";
    default: return std::string(t.label(t.ranks[s.rank].states[s.state]));
  }
}

}  // namespace

Shares shares_of(const trace::Trace& trace, const CriticalPath& path) {
  Shares out;
  const PhaseLookup phases(trace);
  for (const auto& s : path.segments) {
    if (s.kind != SegmentKind::message) out.by_rank[s.rank] += s.length;
    out.by_operation[operation_of(trace, s)] += s.length;
    if (!phases.empty()) {
      const auto phase = s.kind == SegmentKind::message ? phases.at(s.peer, s.begin) : phases.at(s.rank, s.begin);
      out.by_phase[phase.empty() ? "(outside phases)" : std::string(phase)] += s.length;
    }
    if (s.kind == SegmentKind::compute && s.length > out.longest_grain)
      out.longest_grain = s.length, out.longest_grain_rank = s.rank, out.longest_grain_state = s.state;
  }
  return out;
}

}  // namespace augur::analyze
