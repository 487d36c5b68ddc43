// Reads LogGOPSim's GOAL text (docs/goal-format.md): `num_ranks N`, then `rank R { … }` blocks of
// one statement a line, `// …` and `/* … */` comments. Labels belong to their rank and may be
// used before the line that defines them; every error names the file and line.
#include <algorithm>
#include <charconv>
#include <fstream>
#include <limits>
#include <numeric>
#include <unordered_map>

#include <fmt/format.h>

#include "sim/program/goal.hpp"
#include "sim/program/schedule_lexer.hpp"

namespace augur::sim {
namespace {

enum class Kind { word, number, colon, open, close, newline, end };

struct Tok {
  Kind kind = Kind::end;
  std::string_view text;
  int line = 1;
};

bool word_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }
bool digit(char c) { return c >= '0' && c <= '9'; }

class Lexer {
 public:
  Lexer(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  Tok next() {
    skip_blanks();
    if (pos_ >= text_.size()) return {Kind::end, {}, line_};
    const char c = text_[pos_];
    const std::size_t start = pos_;
    if (c == '\n') {
      ++pos_;
      return {Kind::newline, text_.substr(start, 1), line_++};
    }
    if (c == ':' || c == '{' || c == '}') {
      ++pos_;
      return {c == ':' ? Kind::colon : c == '{' ? Kind::open : Kind::close, text_.substr(start, 1), line_};
    }
    if (digit(c) || (c == '-' && pos_ + 1 < text_.size() && digit(text_[pos_ + 1]))) {
      ++pos_;
      while (pos_ < text_.size() && (digit(text_[pos_]) || text_[pos_] == '.')) ++pos_;
      return {Kind::number, text_.substr(start, pos_ - start), line_};
    }
    if (word_char(c)) {
      while (pos_ < text_.size() && word_char(text_[pos_])) ++pos_;
      return {Kind::word, text_.substr(start, pos_ - start), line_};
    }
    throw error(line_, fmt::format("unexpected character '{}'", c));
  }

  ScheduleError error(int line, const std::string& reason) const {
    return ScheduleError(fmt::format("{}:{}: {}", file_, line, reason));
  }

 private:
  void skip_blanks() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\r') {
        ++pos_;
      } else if (text_.substr(pos_, 2) == "//") {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (text_.substr(pos_, 2) == "/*") {
        const int opened = line_;
        const auto close = text_.find("*/", pos_ + 2);
        if (close == std::string_view::npos) throw error(opened, "comment /* is never closed");
        line_ += static_cast<int>(std::count(text_.begin() + static_cast<std::ptrdiff_t>(pos_),
                                             text_.begin() + static_cast<std::ptrdiff_t>(close), '\n'));
        pos_ = close + 2;
      } else {
        return;
      }
    }
  }

  std::string_view text_;
  const std::string& file_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

struct PendingDependency {
  std::string_view vertex, on;
  bool started;
  int line;
};

class GoalParser {
 public:
  GoalParser(std::string_view text, const std::string& file) : lex_(text, file), text_(text) {}

  std::unique_ptr<GoalProgram> parse() {
    advance();
    skip_newlines();
    if (!is_word("num_ranks")) throw lex_.error(tok_.line, "a GOAL schedule starts with num_ranks N");
    advance();
    const auto n = integer("the number of ranks", 1, (1 << 24));
    nranks_ = static_cast<int>(n);
    given_.assign(static_cast<std::size_t>(nranks_), false);
    end_of_statement();
    for (skip_newlines(); tok_.kind != Kind::end; skip_newlines()) rank_block();
    return finish();
  }

 private:
  void advance() { tok_ = lex_.next(); }
  bool is_word(std::string_view w) const { return tok_.kind == Kind::word && tok_.text == w; }
  void skip_newlines() {
    while (tok_.kind == Kind::newline) advance();
  }
  std::string found() const {
    switch (tok_.kind) {
      case Kind::newline: return "the end of the line";
      case Kind::end: return "the end of the file";
      default: return fmt::format("'{}'", tok_.text);
    }
  }
  [[noreturn]] void expected(std::string_view what) const {
    throw lex_.error(tok_.line, fmt::format("expected {}, found {}", what, found()));
  }
  void end_of_statement() {
    if (tok_.kind == Kind::newline || tok_.kind == Kind::end) return;
    expected("the end of the line");
  }

  long long integer(std::string_view what, long long lo, long long hi) {
    if (tok_.kind != Kind::number) expected(what);
    long long v = 0;
    const auto* first = tok_.text.data();
    const auto* last = first + tok_.text.size();
    const auto [ptr, ec] = std::from_chars(first, last, v);
    if (ec != std::errc() || ptr != last || v < lo || v > hi)
      throw lex_.error(tok_.line, fmt::format("{} must be an integer from {} to {}, not {}", what, lo, hi, tok_.text));
    advance();
    return v;
  }

  double nonnegative(std::string_view what) {
    if (tok_.kind != Kind::number) expected(what);
    double v = 0;
    const auto* first = tok_.text.data();
    const auto* last = first + tok_.text.size();
    const auto [ptr, ec] = std::from_chars(first, last, v);
    if (ec != std::errc() || ptr != last || !(v >= 0) || v > 1e18)
      throw lex_.error(tok_.line, fmt::format("{} must be a number from 0 to 1e18, not {}", what, tok_.text));
    advance();
    return v;
  }

  void rank_block() {
    if (!is_word("rank")) expected("rank R {");
    advance();
    const int line = tok_.line;
    rank_ = static_cast<int>(integer("a rank", 0, nranks_ - 1));
    if (given_[static_cast<std::size_t>(rank_)]) throw lex_.error(line, fmt::format("rank {} is given twice", rank_));
    given_[static_cast<std::size_t>(rank_)] = true;
    if (!vertices_.empty() && rank_ < vertices_.back().rank) in_order_ = false;
    if (tok_.kind != Kind::open) expected("{");
    advance();
    labels_.clear();
    pending_.clear();
    for (skip_newlines(); tok_.kind != Kind::close; skip_newlines()) {
      if (tok_.kind == Kind::end) throw lex_.error(line, fmt::format("rank {}'s block is never closed with }}", rank_));
      statement();
    }
    advance();
    end_of_statement();
    resolve();
  }

  void statement() {
    if (tok_.kind != Kind::word) expected("a label, send, recv or calc");
    const Tok first = tok_;
    advance();
    if (tok_.kind == Kind::word && (tok_.text == "requires" || tok_.text == "irequires")) {
      const bool started = tok_.text == "irequires";
      advance();
      if (tok_.kind != Kind::word) expected("a label");
      pending_.push_back({first.text, tok_.text, started, first.line});
      advance();
      return end_of_statement();
    }
    std::string_view op = first.text;
    if (tok_.kind == Kind::colon) {
      advance();
      if (tok_.kind != Kind::word) expected("send, recv or calc");
      op = tok_.text;
      if (!labels_.emplace(first.text, static_cast<std::uint32_t>(vertices_.size())).second)
        throw lex_.error(first.line, fmt::format("label {} is defined twice in rank {}", first.text, rank_));
      advance();
    }
    vertex(op, first.line);
    end_of_statement();
  }

  void vertex(std::string_view op, int line) {
    GoalVertex v;
    v.rank = rank_;
    if (op == "calc") {
      v.op = GoalOp::calc;
      v.value = nonnegative("a calc time (ns)") * 1e-9;
      if (is_word("cpu")) {
        advance();
        v.cpu = static_cast<std::uint8_t>(integer("a cpu", 0, 255));
      }
    } else if (op == "send" || op == "recv") {
      v.op = op == "send" ? GoalOp::send : GoalOp::recv;
      message(v);
    } else {
      throw lex_.error(line, fmt::format("expected send, recv or calc, found '{}'", op));
    }
    vertices_.push_back(v);
  }

  void message(GoalVertex& v) {
    const bool send = v.op == GoalOp::send;
    v.value = static_cast<double>(integer("a size in bytes", 0, std::numeric_limits<long long>::max()));
    if (is_word("b")) advance();
    if (!is_word(send ? "to" : "from")) expected(send ? "to" : "from");
    advance();
    v.peer = static_cast<std::int32_t>(integer(send ? "a destination rank" : "a source rank (-1: any)", send ? 0 : -1, nranks_ - 1));
    if (v.peer == -1) v.peer = kAny;
    for (;;) {
      if (is_word("tag")) {
        advance();
        v.tag = static_cast<std::int32_t>(integer("a tag (-1: any, receives only)", send ? 0 : -1, std::numeric_limits<std::int32_t>::max()));
        if (v.tag == -1) v.tag = kAny;
      } else if (is_word("cpu") || is_word("nic")) {
        const bool cpu = tok_.text == "cpu";
        advance();
        (cpu ? v.cpu : v.nic) = static_cast<std::uint8_t>(integer(cpu ? "a cpu" : "a nic", 0, 255));
      } else {
        return;
      }
    }
  }

  std::uint32_t label(std::string_view name, int line) const {
    const auto it = labels_.find(name);
    if (it == labels_.end()) throw lex_.error(line, fmt::format("rank {} has no vertex labelled {}", rank_, name));
    return it->second;
  }

  void resolve() {
    for (const auto& p : pending_) {
      dependencies_.push_back({label(p.vertex, p.line), label(p.on, p.line), p.started});
      lines_.push_back(p.line);
    }
  }

  std::string line_text(int line) const {
    std::size_t pos = 0;
    for (int l = 1; l < line && pos != std::string_view::npos; ++l) {
      pos = text_.find('\n', pos);
      if (pos != std::string_view::npos) ++pos;
    }
    if (pos == std::string_view::npos) return {};
    auto s = text_.substr(pos, text_.find('\n', pos) - pos);
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == '\r' || s.back() == ' ')) s.remove_suffix(1);
    return std::string(s);
  }

  void check_cycles() const {
    const auto cycle = find_cycle(vertices_.size(), dependencies_);
    if (cycle.empty()) return;
    std::string steps;
    for (const auto i : cycle) steps += fmt::format("{}'{}' (line {})", steps.empty() ? "" : ", ", line_text(lines_[i]), lines_[i]);
    throw lex_.error(lines_[cycle.front()], fmt::format("rank {}'s dependencies form a cycle, so none of it can start: {}",
                                                        vertices_[dependencies_[cycle.front()].vertex].rank, steps));
  }

  std::unique_ptr<GoalProgram> finish() {
    check_cycles();
    if (!in_order_) sort_by_rank();
    return std::make_unique<GoalProgram>(nranks_, std::move(vertices_), dependencies_);
  }

  // Blocks given out of rank order: the vertices are put in rank order, their dependencies renamed.
  void sort_by_rank() {
    std::vector<std::uint32_t> order(vertices_.size()), place(vertices_.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return vertices_[a].rank < vertices_[b].rank; });
    std::vector<GoalVertex> sorted(vertices_.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
      sorted[i] = vertices_[order[i]];
      place[order[i]] = static_cast<std::uint32_t>(i);
    }
    vertices_ = std::move(sorted);
    for (auto& d : dependencies_) d = {place[d.vertex], place[d.on], d.started};
  }

  Lexer lex_;
  std::string_view text_;
  Tok tok_;
  int nranks_ = 0, rank_ = 0;
  bool in_order_ = true;
  std::vector<bool> given_;
  std::vector<GoalVertex> vertices_;
  std::vector<GoalDependency> dependencies_;
  std::vector<int> lines_;
  std::unordered_map<std::string_view, std::uint32_t> labels_;
  std::vector<PendingDependency> pending_;
};

}  // namespace

std::unique_ptr<GoalProgram> parse_goal(std::string_view text, const std::string& file) {
  return GoalParser(text, file).parse();
}

std::unique_ptr<GoalProgram> read_goal_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ScheduleError(path + ": cannot read the file");
  // Read whole in one piece: a million ranks' schedule is about 100 MB.
  in.seekg(0, std::ios::end);
  std::string text(static_cast<std::size_t>(std::max<std::streamoff>(0, in.tellg())), '\0');
  in.seekg(0);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return parse_goal(text, path);
}

bool looks_like_goal(const std::string& path) {
  if (path.size() >= 5 && path.compare(path.size() - 5, 5, ".goal") == 0) return true;
  std::ifstream in(path, std::ios::binary);
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  try {
    Lexer lex(head, path);
    Tok t = lex.next();
    while (t.kind == Kind::newline) t = lex.next();
    return t.kind == Kind::word && t.text == "num_ranks";
  } catch (const ScheduleError&) {
    return false;
  }
}

}  // namespace augur::sim
