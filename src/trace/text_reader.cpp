#include "trace/text_reader.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "util/text.hpp"

namespace augur::trace {

namespace {

constexpr std::size_t kMaxReportedProblems = 20;

std::string_view trim_field(std::string_view s) { return util::trim(s, " \t\r"); }

bool parse_int(std::string_view s, int& out) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

bool parse_double(std::string_view s, double& out) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size() && std::isfinite(out);
}

// "p[12]" -> 12
bool parse_bar(std::string_view s, int& rank) {
  if (s.size() < 4 || s.substr(0, 2) != "p[" || s.back() != ']') return false;
  return parse_int(s.substr(2, s.size() - 3), rank) && rank >= 0 && rank < (1 << 20);
}

struct TextEvent {
  int rank;
  double time;
  std::string_view name;
};

// "u:p[0] at 1.23: P BARRIER"; returns the reason when the line is not an event.
std::string parse_event(std::string_view line, TextEvent& event) {
  auto colon = line.find(':');
  auto at = line.find(" at ");
  if (colon == std::string_view::npos || at == std::string_view::npos || at < colon)
    return "expected 'u:p[N] at TIME: P STATE'";
  if (!parse_bar(trim_field(line.substr(colon + 1, at - colon - 1)), event.rank)) return "bad bar name";
  auto rest = line.substr(at + 4);
  auto time_end = rest.find(':');
  if (time_end == std::string_view::npos || !parse_double(trim_field(rest.substr(0, time_end)), event.time))
    return "bad event time";
  auto words = trim_field(rest.substr(time_end + 1));
  auto space = words.find(' ');
  if (space == std::string_view::npos) return "missing state name";
  event.name = trim_field(words.substr(space + 1));
  return event.name.empty() ? "missing state name" : "";
}

StateKind kind_of(std::string_view name) {
  if (name == "COMPUTE") return StateKind::compute;
  if (name == "WAIT") return StateKind::wait;
  if (name == "IDLE") return StateKind::idle;
  return StateKind::mpi;
}

class TextTraceBuilder {
 public:
  explicit TextTraceBuilder(std::string file) : file_(std::move(file)) {
    trace_.header.mode = TraceMode::simulated;
    trace_.header.clock = "seconds";
  }

  void add_bar(int rank) {
    if (static_cast<std::size_t>(rank) >= trace_.ranks.size()) trace_.ranks.resize(rank + 1);
  }

  void add_event(const TextEvent& e, std::uint32_t line_number, std::size_t offset) {
    add_bar(e.rank);
    auto& open = open_states_;
    if (open.size() < trace_.ranks.size()) open.resize(trace_.ranks.size());
    auto& pending = open[e.rank];
    if (pending.line != 0) {
      if (e.time < pending.state.begin) {
        problem(offset, fmt::format("line {}: time {} goes backwards on p[{}]", line_number,
                                    e.time, e.rank));
        return;
      }
      pending.state.end = e.time;
      auto& rank = trace_.ranks[e.rank];
      rank.states.push_back(pending.state);
      rank.state_lines.push_back(pending.line);
    }
    StateKind kind = kind_of(e.name);
    NameIndex op = kind == StateKind::mpi ? trace_.intern(e.name) : 0;
    pending = {State{e.time, e.time, op, kind}, line_number};
  }

  void problem(std::size_t offset, std::string reason) {
    if (trace_.problems.size() < kMaxReportedProblems)
      trace_.problems.push_back({file_, offset, std::move(reason)});
  }

  Trace finish() {
    for (std::size_t r = 0; r < trace_.ranks.size(); ++r) trace_.ranks[r].file = file_;
    return std::move(trace_);
  }

 private:
  struct Pending {
    State state{};
    std::uint32_t line = 0;
  };
  std::string file_;
  Trace trace_;
  std::vector<Pending> open_states_;
};

}  // namespace

bool looks_like_text_trace(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string first;
  while (std::getline(in, first))
    if (!trim_field(first).empty()) break;
  auto t = trim_field(first);
  return t == "$types" || t == "$bars" || t == "$events";
}

Trace read_text_trace(std::string_view text, const std::string& file_name) {
  TextTraceBuilder builder(file_name);
  enum class Section { none, types, bars, events } section = Section::none;
  std::uint32_t line_number = 0;
  for (std::size_t offset = 0; offset < text.size();) {
    auto newline = text.find('\n', offset);
    if (newline == std::string_view::npos) newline = text.size();
    auto line = trim_field(text.substr(offset, newline - offset));
    ++line_number;
    std::size_t line_offset = offset;
    offset = newline + 1;
    if (line.empty() || line.front() == '#') continue;
    if (line == "$types") section = Section::types;
    else if (line == "$bars") section = Section::bars;
    else if (line == "$events") section = Section::events;
    else if (section == Section::bars) {
      int rank;
      if (parse_bar(line.substr(0, line.find(' ')), rank)) builder.add_bar(rank);
      else builder.problem(line_offset, fmt::format("line {}: bad bar '{}'", line_number, line));
    } else if (section == Section::events) {
      TextEvent event;
      if (auto error = parse_event(line, event); error.empty())
        builder.add_event(event, line_number, line_offset);
      else
        builder.problem(line_offset, fmt::format("line {}: {}", line_number, error));
    } else if (section == Section::none) {
      builder.problem(line_offset, fmt::format("line {}: text before $types/$bars/$events", line_number));
    }
  }
  return builder.finish();
}

Trace read_text_trace_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot open trace file", path.string()));
  std::stringstream buffer;
  buffer << in.rdbuf();
  return read_text_trace(buffer.str(), path.string());
}

}  // namespace augur::trace
