#include "analyze/report.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "model/units.hpp"

namespace augur::analyze {
namespace {

using model::format_seconds;

std::string_view kind_name(SegmentKind k) {
  switch (k) {
    case SegmentKind::compute: return "compute";
    case SegmentKind::mpi: return "mpi";
    case SegmentKind::message: return "message";
    case SegmentKind::collective: return "collective";
    case SegmentKind::gap: break;
  }
  return "untraced";
}

std::string percent(double part, double whole) { return whole > 0 ? fmt::format("{:.1f}%", 100 * part / whole) : "-"; }

// "name time (share)", largest first, at most `n`.
template <typename Map, typename Name>
std::string ranking(const Map& m, double whole, std::size_t n, Name name) {
  std::vector<std::pair<double, std::string>> items;
  for (const auto& [k, v] : m) items.push_back({v, name(k)});
  std::stable_sort(items.begin(), items.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < n; ++i)
    out += fmt::format("{}{} {} ({})", i ? ", " : "", items[i].second, format_seconds(items[i].first),
                       percent(items[i].first, whole));
  if (items.size() > n) out += fmt::format(", … {} more", items.size() - n);
  return out;
}

std::string describe_segment(const Segment& s, const trace::Trace& t) {
  const auto where = fmt::format("{} → {}", format_seconds(s.begin - t.start_time()), format_seconds(s.end - t.start_time()));
  switch (s.kind) {
    case SegmentKind::message: return fmt::format("message rank {} → rank {}, {}", s.peer, s.rank, where);
    case SegmentKind::compute: return fmt::format("compute on rank {}, {}", s.rank, where);
    case SegmentKind::gap: return fmt::format("untraced on rank {}, {}", s.rank, where);
    default:
      return fmt::format("{} on rank {}, {}", readable_operation(std::string(t.label(t.ranks[s.rank].states[s.state]))),
                         s.rank, where);
  }
}

nlohmann::json shares_json(const Shares& s) {
  nlohmann::json ranks = nlohmann::json::object();
  for (const auto& [r, v] : s.by_rank) ranks[std::to_string(r)] = v;
  return {{"by_rank", ranks}, {"by_operation", s.by_operation}, {"by_phase", s.by_phase},
          {"longest_grain", {{"seconds", s.longest_grain}, {"rank", s.longest_grain_rank}}}};
}

nlohmann::json load_json(const CriticalLoad& l) {
  nlohmann::json links = nlohmann::json::array();
  for (const auto& k : l.links) links.push_back({{"link", k.name}, {"seconds", k.seconds}, {"messages", k.messages}});
  return {{"seconds", l.load}, {"resource", l.resource}, {"on_link", l.on_link},
          {"busiest_rank", l.busiest_rank}, {"busiest_rank_seconds", l.busiest_rank_load},
          {"even_spread_seconds", l.even_spread}, {"links", links}};
}

nlohmann::json segments_json(const CriticalPath& p) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& s : p.segments) {
    nlohmann::json j = {{"kind", kind_name(s.kind)}, {"rank", s.rank}, {"begin", s.begin}, {"end", s.end},
                        {"length", s.length}};
    if (s.peer >= 0) j["peer"] = s.peer;
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace

nlohmann::json to_json(const Analysis& a, const trace::Trace& trace) {
  const auto& adv = a.advice;
  return {{"run_seconds", a.path.run_time},
          {"ranks", trace.nranks()},
          {"events", a.events},
          {"critical_path", {{"seconds", a.path.length}, {"sink_rank", a.path.sink}, {"shares", shares_json(a.shares)},
                             {"segments", segments_json(a.path)}}},
          {"critical_load", load_json(a.load)},
          {"optimistic_limit_seconds", adv.limit},
          {"gap_seconds", adv.gap},
          {"contention", adv.contention},
          {"utilisation", adv.utilisation},
          {"advice", {{"regime", adv.regime}, {"tuning", to_string(adv.kind)}, {"reason", adv.reason}}},
          {"unmatched_messages", a.unmatched},
          {"dropped_dependencies", a.path.forced}};
}

nlohmann::json to_json(const WhatIf& w) {
  nlohmann::json j = {{"what_if", w.description},
                      {"baseline_seconds", w.baseline},
                      {"tuned_seconds", w.tuned},
                      {"tuned_critical_path_seconds", w.after.path.length},
                      {"tuned_optimistic_limit_seconds", w.after.advice.limit}};
  j["bound_seconds"] = std::isnan(w.bound) ? nlohmann::json() : nlohmann::json(w.bound);
  j["rematched"] = w.rematched;
  return j;
}

nlohmann::json to_json(const Sweep& s) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& a : s.anomalies)
    list.push_back({{"grain", a.grain}, {"baseline_seconds", a.baseline}, {"tuned_seconds", a.tuned},
                    {"reordered", a.reordered}});
  return {{"factor", s.factor}, {"swept", s.grains}, {"tried", s.tried}, {"anomalies", list}, {"note", s.note}};
}

std::string format_analysis(const Analysis& a, const trace::Trace& trace, std::size_t top) {
  const auto& p = a.path;
  const auto& adv = a.advice;
  std::string out = fmt::format("Run time: {} ({} rank{}, {} events)\n", format_seconds(p.run_time), trace.nranks(),
                                trace.nranks() == 1 ? "" : "s", a.events);
  out += fmt::format("Critical path: {} ({} of the run), ending on rank {}\n", format_seconds(p.length),
                     percent(p.length, p.run_time), p.sink);
  out += "  by rank:      " + ranking(a.shares.by_rank, p.length, 6, [](int r) { return fmt::format("rank {}", r); }) + "\n";
  out += "  by operation: " + ranking(a.shares.by_operation, p.length, 6, readable_operation) + "\n";
  if (!a.shares.by_phase.empty())
    out += "  by phase:     " + ranking(a.shares.by_phase, p.length, 6, [](const std::string& s) { return s; }) + "\n";
  std::vector<const Segment*> longest;
  for (const auto& s : p.segments) longest.push_back(&s);
  std::stable_sort(longest.begin(), longest.end(), [](auto* x, auto* y) { return x->length > y->length; });
  if (!longest.empty()) out += "  longest on it:\n";
  for (std::size_t i = 0; i < longest.size() && i < top; ++i)
    out += fmt::format("    {:>10}  {}\n", format_seconds(longest[i]->length), describe_segment(*longest[i], trace));
  const auto& l = a.load;
  out += fmt::format("Critical load: {} on {} (busiest rank: rank {}, {}; even spread over the ranks: {})\n",
                     format_seconds(l.load), l.resource, l.busiest_rank, format_seconds(l.busiest_rank_load),
                     format_seconds(l.even_spread));
  for (std::size_t i = 0; i < l.links.size() && i < 3; ++i)
    out += fmt::format("  {}: {} ({} messages)\n", l.links[i].name, format_seconds(l.links[i].seconds), l.links[i].messages);
  out += fmt::format("Optimistic limit: {} (the larger of path and load); the run is {} ({}) above it\n",
                     format_seconds(adv.limit), format_seconds(adv.gap), percent(adv.gap, p.run_time));
  out += fmt::format("Tuning: {} tuning ({} bound; contention {}, utilisation {}): {}\n", to_string(adv.kind),
                     adv.regime, percent(adv.contention, 1), percent(adv.utilisation, 1), adv.reason);
  if (a.unmatched) out += fmt::format("Note: {} messages had only one half in the trace and are left off the path\n", a.unmatched);
  if (p.forced) out += fmt::format("Note: {} dependencies contradicted the clock and were dropped\n", p.forced);
  return out;
}

std::string format_what_if(const WhatIf& w) {
  std::string out = fmt::format("What if {}: {} (re-simulated baseline {}, {} {})\n", w.description, format_seconds(w.tuned),
                                format_seconds(w.baseline), w.tuned <= w.baseline ? "saves" : "COSTS",
                                format_seconds(std::abs(w.baseline - w.tuned)));
  if (!std::isnan(w.bound))
    out += fmt::format("  bound before simulating: no faster than {}; ", format_seconds(w.bound));
  else
    out += "  ";
  out += fmt::format("tuned run's own limit {} (critical path {})\n", format_seconds(w.after.advice.limit),
                     format_seconds(w.after.path.length));
  if (w.rematched)
    out += "  wildcard receives matched other messages than in the baseline: the bound is for the baseline's "
           "matching, and the new order may beat it\n";
  return out;
}

std::string format_sweep(const Sweep& s) {
  std::string out = fmt::format("Anomaly sweep: {} {} each shrunk to {:g}x", s.tried, s.grains, s.factor);
  if (s.anomalies.empty()) out += ": none made the run longer\n";
  else out += fmt::format(": {} made the run longer\n", s.anomalies.size());
  for (const auto& a : s.anomalies) {
    out += fmt::format("  {}: {} → {} (+{})\n", a.grain, format_seconds(a.baseline), format_seconds(a.tuned),
                       format_seconds(a.tuned - a.baseline));
    for (const auto& r : a.reordered) out += "    " + r + "\n";
  }
  if (!s.note.empty()) out += "  Note: " + s.note + "\n";
  return out;
}

}  // namespace augur::analyze
