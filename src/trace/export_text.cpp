// The seed's simulator text: one "u:p[N] at T: P STATE" line per state start, in time order,
// a DONE event where each rank finishes and an IDLE event wherever a rank has a gap.
#include <fstream>
#include <queue>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "trace/exporters.hpp"

namespace augur::trace {

namespace {

struct TextEvent {
  double time;
  std::string_view label;
};

std::vector<TextEvent> rank_events(const Trace& trace, const RankTrace& rank) {
  std::vector<TextEvent> events;
  events.reserve(rank.states.size() + 1);
  for (std::size_t i = 0; i < rank.states.size(); ++i) {
    const State& s = rank.states[i];
    if (i > 0 && s.begin > rank.states[i - 1].end) events.push_back({rank.states[i - 1].end, "IDLE"});
    events.push_back({s.begin, trace.label(s)});
  }
  if (!rank.states.empty()) events.push_back({rank.states.back().end, "DONE"});
  return events;
}

}  // namespace

Files export_text(const Trace& trace, const std::filesystem::path& out) {
  std::ofstream file(out);
  if (!file) throw std::runtime_error(fmt::format("{}: cannot create", out.string()));
  std::vector<std::vector<TextEvent>> events;
  std::set<std::string_view> labels;
  for (const auto& rank : trace.ranks) {
    events.push_back(rank_events(trace, rank));
    for (const auto& e : events.back()) labels.insert(e.label);
  }
  file << "$types\nState";
  for (auto label : labels) file << ' ' << label;
  file << "\n$bars\n";
  for (int r = 0; r < trace.nranks(); ++r) file << fmt::format("p[{}] State\n", r);
  file << "$events\n";
  // Merge the ranks by time: the seed's animator replays events in the order they appear.
  using Cursor = std::pair<double, std::pair<std::size_t, std::size_t>>;
  std::priority_queue<Cursor, std::vector<Cursor>, std::greater<>> next;
  for (std::size_t r = 0; r < events.size(); ++r)
    if (!events[r].empty()) next.push({events[r][0].time, {r, 0}});
  fmt::memory_buffer buffer;
  while (!next.empty()) {
    auto [time, where] = next.top();
    next.pop();
    auto [r, i] = where;
    fmt::format_to(std::back_inserter(buffer), "u:p[{}] at {}: P {}\n", r, time, events[r][i].label);
    if (i + 1 < events[r].size()) next.push({events[r][i + 1].time, {r, i + 1}});
    if (buffer.size() > (1 << 20)) {
      file.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      buffer.clear();
    }
  }
  file.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
  if (!file) throw std::runtime_error(fmt::format("{}: write failed", out.string()));
  return {out};
}

}  // namespace augur::trace
