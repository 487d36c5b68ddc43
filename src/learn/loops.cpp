#include "learn/loops.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <unordered_map>
#include <utility>

namespace augur::learn {
namespace {

// A sequence of symbols: tokens, and loops already found, each standing for its whole subtree,
// so that two iterations holding the same inner loop compare as equal symbols.
using Symbols = std::vector<std::uint32_t>;

// The run starting at a position: s[at, at + length) repeats its first `period` symbols, at
// least twice. period 0: no run starts there.
struct Run {
  std::uint32_t period = 0;
  std::uint32_t length = 0;
};

// Symbols covered by whole copies of a `period`-long body laid from `from` up to `to`; 0 unless
// two copies fit.
std::uint32_t covered(std::uint32_t period, std::uint32_t from, std::uint32_t to) {
  if (period == 0 || to <= from) return 0;
  const auto copies = (to - from) / period;
  return copies >= 2 ? copies * period : 0;
}

// Symbols saved by collapsing `cover` symbols into one loop.
std::int64_t saving(std::uint32_t cover) { return cover > 0 ? std::int64_t{cover} - 1 : 0; }

// For every position, the run starting there whose whole copies cover the most symbols, among
// the periods looked for (ascending), the shortest period on a tie (the body itself rather than
// two of its copies). At one position the run that covers most is the longest one, whatever the
// counts, so the choice is the program's.
std::vector<Run> best_runs(const Symbols& s, const std::vector<std::uint32_t>& periods) {
  const auto n = static_cast<std::uint32_t>(s.size());
  std::vector<Run> best(n);
  std::vector<std::uint32_t> best_cover(n, 0);
  for (const auto period : periods) {
    if (period > n / 2) break;
    std::uint32_t match = 0;  // s[at + i] == s[at + period + i] for i < match
    for (auto at = n - period; at-- > 0;) {
      match = s[at] == s[at + period] ? match + 1 : 0;
      if (match < period) continue;
      const auto length = match + period;
      const auto cover = length - length % period;
      if (cover > best_cover[at]) best_cover[at] = cover, best[at] = {period, length};
    }
  }
  return best;
}

// A loop the parse found: `times` copies of s[start, start + period).
struct Found {
  std::uint32_t start = 0, period = 0, times = 0;
};

// One left-to-right parse of a sequence into loops. At each position the run starting there is
// taken, unless a run starting inside it and reaching beyond it would lose more of its copies to
// it than it loses by stopping where the later one starts: a loop after a prologue that ends like
// its body, or a prologue run that reaches into a loop, are so kept whole. Both losses are a few
// copies whatever the counts, so the choice does not depend on them.
class Parse {
 public:
  Parse(const Symbols& s, const std::vector<std::uint32_t>& periods)
      : runs_(best_runs(s, periods)),
        window_(2 * std::min<std::uint64_t>(periods.empty() ? 0 : periods.back(), s.size())) {}

  std::vector<Found> loops() {
    parse(0, static_cast<std::uint32_t>(runs_.size()), true);
    return std::move(found_);
  }

 private:
  // The run at `at` cut at `end`: the symbols its whole copies cover.
  std::uint32_t cover_at(std::uint32_t at, std::uint32_t end) const {
    const auto& run = runs_[at];
    return covered(run.period, at, std::min(end, at + run.length));
  }

  void parse(std::uint32_t from, std::uint32_t to, bool may_yield) {
    for (auto at = from; at < to;) {
      const auto cover = cover_at(at, to);
      if (cover == 0) {
        ++at;
        continue;
      }
      if (const auto later = may_yield ? yield_point(at, to) : at; later != at) {
        parse(at, later, false);
        at = later;
        continue;
      }
      const auto period = runs_[at].period;
      found_.push_back({at, period, cover / period});
      at += cover;
    }
  }

  // Where the run at `at` should stop for a later one, or `at` when it should not. Two runs
  // that are not one repetition overlap by less than their two periods, so only starts within
  // twice the longest period of the end can conflict.
  std::uint32_t yield_point(std::uint32_t at, std::uint32_t to) const {
    const auto& run = runs_[at];
    const auto run_end = std::min(to, at + run.length);
    const auto end = at + cover_at(at, to);
    std::int64_t best_gain = 0;
    auto best = at;
    for (auto j = static_cast<std::uint32_t>(std::max<std::uint64_t>(at + 1, end > window_ ? end - window_ : 0));
         j < end; ++j) {
      const auto& other = runs_[j];
      const auto other_cover = cover_at(j, to);
      if (other_cover == 0 || j + other_cover <= end) continue;
      if (other.period == run.period && j + run.period < at + run.length) continue;  // a later copy of the same run
      const auto other_end = std::min(to, j + other.length);
      const auto keep = saving(end - at) + saving(covered(other.period, end, other_end));
      const auto give = saving(covered(run.period, at, std::min(j, run_end))) + saving(other_cover);
      if (give - keep > best_gain) best_gain = give - keep, best = j;
    }
    return best;
  }

  std::vector<Run> runs_;
  std::uint64_t window_;
  std::vector<Found> found_;
};

struct SymbolsHash {
  std::size_t operator()(const Symbols& s) const {
    std::uint64_t h = 1469598103934665603ULL;
    for (const auto x : s) h = (h ^ x) * 1099511628211ULL;
    return static_cast<std::size_t>(h);
  }
};

// A token, or a loop: `times` copies of its body, itself compressed.
struct Symbol {
  std::uint32_t token = 0;
  std::uint32_t times = 1;
  Symbols body;
  std::uint64_t tokens = 1;  // in its expansion
};

// Symbols are hash-consed: equal subtrees are one symbol, and a body seen again is not
// compressed again.
class Compressor {
 public:
  explicit Compressor(std::vector<std::uint32_t> periods) : periods_(std::move(periods)) {}

  Symbols symbols_of(std::span<const std::uint32_t> tokens) {
    Symbols out;
    out.reserve(tokens.size());
    for (const auto t : tokens) {
      const auto [it, added] = token_symbols_.try_emplace(t, static_cast<std::uint32_t>(table_.size()));
      if (added) table_.push_back({t, 1, {}, 1});
      out.push_back(it->second);
    }
    return out;
  }

  // Parses again after every pass that found loops, since loops found make the bodies of
  // enclosing loops shorter, up to when one is within the longest period.
  Symbols compress(Symbols s) {
    for (;;) {
      const auto found = Parse(s, periods_).loops();
      if (found.empty()) return s;
      s = collapsed(s, found);
    }
  }

  // The lengths in tokens of the bodies of the loops found that are longer than `bound`.
  std::vector<std::uint32_t> long_bodies(std::uint32_t bound) const {
    std::vector<std::uint32_t> out;
    for (const auto& symbol : table_) {
      const auto body_tokens = symbol.tokens / symbol.times;
      if (!symbol.body.empty() && body_tokens > bound) out.push_back(static_cast<std::uint32_t>(body_tokens));
    }
    return out;
  }

  std::vector<LoopNode> tree(const Symbols& top, std::uint32_t multiplicity) const {
    std::vector<LoopNode> out;
    out.reserve(top.size());
    for (const auto id : top) {
      const auto& symbol = table_[id];
      LoopNode node;
      if (symbol.body.empty()) {
        node.token = symbol.token;
        node.occurrences.reserve(multiplicity);
      } else {
        node.times = symbol.times;
        node.body = tree(symbol.body, multiplicity * symbol.times);
      }
      out.push_back(std::move(node));
    }
    return out;
  }

 private:
  Symbols collapsed(const Symbols& s, const std::vector<Found>& found) {
    Symbols out;
    std::uint32_t at = 0;
    for (const auto& f : found) {
      out.insert(out.end(), s.begin() + at, s.begin() + f.start);
      const Symbols raw(s.begin() + f.start, s.begin() + f.start + f.period);
      out.push_back(loop_symbol(f.times, body_of(raw)));
      at = f.start + f.period * f.times;
    }
    out.insert(out.end(), s.begin() + at, s.end());
    return out;
  }

  Symbols body_of(const Symbols& raw) {
    if (const auto it = compressed_bodies_.find(raw); it != compressed_bodies_.end()) return it->second;
    auto body = compress(raw);
    compressed_bodies_.emplace(raw, body);
    return body;
  }

  std::uint32_t loop_symbol(std::uint32_t times, const Symbols& body) {
    const auto [it, added] = loop_symbols_.try_emplace({times, body}, static_cast<std::uint32_t>(table_.size()));
    if (!added) return it->second;
    std::uint64_t body_tokens = 0;
    for (const auto id : body) body_tokens += table_[id].tokens;
    table_.push_back({0, times, body, times * body_tokens});
    return it->second;
  }

  std::vector<std::uint32_t> periods_;
  std::vector<Symbol> table_;
  std::unordered_map<std::uint32_t, std::uint32_t> token_symbols_;
  std::unordered_map<Symbols, Symbols, SymbolsHash> compressed_bodies_;
  std::map<std::pair<std::uint32_t, Symbols>, std::uint32_t> loop_symbols_;
};

void record_occurrences(std::vector<LoopNode>& nodes, std::uint32_t& position) {
  for (auto& node : nodes) {
    if (!node.is_loop()) {
      node.occurrences.push_back(position++);
      continue;
    }
    for (std::uint32_t i = 0; i < node.times; ++i) record_occurrences(node.body, position);
  }
}

void expand_into(const std::vector<LoopNode>& nodes, std::vector<std::uint32_t>& out) {
  for (const auto& node : nodes) {
    if (!node.is_loop()) {
      out.push_back(node.token);
      continue;
    }
    for (std::uint32_t i = 0; i < node.times; ++i) expand_into(node.body, out);
  }
}

void describe_into(const std::vector<LoopNode>& nodes, const std::function<std::string(std::uint32_t)>& name,
                   std::string& out) {
  const auto word = [&out](const std::string& w) {
    if (!out.empty()) out += ' ';
    out += w;
  };
  for (const auto& node : nodes) {
    if (!node.is_loop()) {
      word(name(node.token));
      continue;
    }
    word("repeat " + std::to_string(node.times) + " {");
    describe_into(node.body, name, out);
    word("}");
  }
}

}  // namespace

// A loop whose body is longer than the longest period is found only once its inner loops are,
// and where its first or last iteration shared a run with the tokens around it, it is found
// rotated and an iteration short. Its body's length in tokens is then looked for too, from the
// tokens again, so that it is found whole as the shorter loops are.
std::vector<LoopNode> compress(std::span<const std::uint32_t> tokens, LoopOptions options) {
  if (tokens.size() >= std::numeric_limits<std::uint32_t>::max())
    throw std::length_error("a rank's sequence of " + std::to_string(tokens.size()) +
                            " operations is too long to compress");
  // Periods beyond half the sequence find nothing, and a huge bound must not cost memory.
  std::vector<std::uint32_t> periods(std::min<std::size_t>(options.max_period, tokens.size() / 2));
  std::iota(periods.begin(), periods.end(), 1u);
  constexpr int kRounds = 4;
  for (int round = 1;; ++round) {
    Compressor compressor(periods);
    const auto top = compressor.compress(compressor.symbols_of(tokens));
    const auto before = periods.size();
    for (const auto length : compressor.long_bodies(options.max_period)) periods.push_back(length);
    std::sort(periods.begin(), periods.end());
    periods.erase(std::unique(periods.begin(), periods.end()), periods.end());
    if (periods.size() == before || round == kRounds) {
      auto nodes = compressor.tree(top, 1);
      std::uint32_t position = 0;
      record_occurrences(nodes, position);
      return nodes;
    }
  }
}

std::vector<std::uint32_t> expand(const std::vector<LoopNode>& nodes) {
  std::vector<std::uint32_t> out;
  expand_into(nodes, out);
  return out;
}

bool same_shape(const std::vector<LoopNode>& a, const std::vector<LoopNode>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const LoopNode& x, const LoopNode& y) {
    if (x.is_loop() != y.is_loop()) return false;
    return x.is_loop() ? x.until_tag == y.until_tag && same_shape(x.body, y.body) : x.token == y.token;
  });
}

std::string describe(const std::vector<LoopNode>& nodes) {
  return describe(nodes, [](std::uint32_t token) { return std::to_string(token); });
}

std::string describe(const std::vector<LoopNode>& nodes, const std::function<std::string(std::uint32_t)>& name) {
  std::string out;
  describe_into(nodes, name, out);
  return out;
}

}  // namespace augur::learn
