#include "learn/unrolled_loops.hpp"

#include <algorithm>

#include "learn/first_difference.hpp"

namespace augur::learn {
namespace {

// Longest loop laid out: a dimension's swaps, a few calls repeated a few times.
constexpr std::uint32_t kMostIterations = 8;

bool flat(const SampleNode& loop) {
  return std::none_of(loop.body.begin(), loop.body.end(), [](const SampleNode& n) { return n.is_loop(); });
}

// Whether `steps[at …]` holds `loop.times` copies of the loop's body, call for call.
bool written_out(const std::vector<SampleNode>& steps, std::size_t at, const RankSequences& ss, const SampleNode& loop,
                 const RankSequences& sl) {
  const std::size_t length = loop.body.size();
  if (at + loop.times * length > steps.size()) return false;
  for (std::size_t k = 0; k < loop.times * length; ++k) {
    const auto& a = steps[at + k];
    const auto& b = loop.body[k % length];
    if (a.is_loop() || !same_call(a.op, ss, b.op, sl)) return false;
  }
  return true;
}

// Every `times`-th of `all`, from the `copy`-th: one iteration's occurrences.
template <typename T>
std::vector<T> every(const std::vector<T>& all, std::size_t copy, std::size_t times) {
  std::vector<T> out;
  for (std::size_t i = copy; i < all.size(); i += times) out.push_back(all[i]);
  return out;
}

// Iteration `copy` of a loop's body step: its occurrences are every `times`-th of the step's.
SampleNode iteration(const SampleNode& step, std::size_t copy, std::size_t times) {
  SampleNode out = step;
  for (std::size_t m = 0; m < out.values.size(); ++m) {
    out.values[m] = every(step.values[m], copy, times);
    double sum = 0;
    for (const auto v : out.values[m]) sum += v;
    out.value[m] = out.values[m].empty() ? 0 : sum / double(out.values[m].size());
  }
  for (std::size_t m = 0; m < out.peers.size(); ++m) {
    out.peers[m] = every(step.peers[m], copy, times);
    if (!out.peers[m].empty() && m < out.peer.size()) out.peer[m] = out.peers[m].front();
  }
  return out;
}

// Whether every member ran the loop `times` times at each of its occurrences, so that its
// steps' occurrences split into iterations.
bool evenly_repeated(const SampleNode& loop) {
  if (std::any_of(loop.counts.begin(), loop.counts.end(), [&](double c) { return c != loop.times; })) return false;
  return std::all_of(loop.body.begin(), loop.body.end(), [&](const SampleNode& step) {
    return std::all_of(step.values.begin(), step.values.end(),
                       [&](const std::vector<double>& v) { return v.size() % loop.times == 0; });
  });
}

void unroll(std::vector<SampleNode>& steps, std::size_t at) {
  const SampleNode loop = std::move(steps[at]);
  std::vector<SampleNode> laid;
  for (std::size_t copy = 0; copy < loop.times; ++copy)
    for (const auto& step : loop.body) laid.push_back(iteration(step, copy, loop.times));
  steps.erase(steps.begin() + static_cast<std::ptrdiff_t>(at));
  steps.insert(steps.begin() + static_cast<std::ptrdiff_t>(at), std::make_move_iterator(laid.begin()),
               std::make_move_iterator(laid.end()));
}

std::size_t unroll_at(const std::vector<GroupBody>& bodies, std::size_t i) {
  const GroupBody* written = nullptr;
  const SampleNode* loop = nullptr;
  const GroupBody* looped = nullptr;
  for (const auto& b : bodies) {
    if (i >= b.body->size()) continue;
    const auto& n = (*b.body)[i];
    if (n.is_loop() && n.until_tag < 0 && n.times <= kMostIterations && flat(n) && evenly_repeated(n)) loop = &n, looped = &b;
  }
  if (!loop) return 0;
  for (const auto& b : bodies)
    if (i < b.body->size() && written_out(*b.body, i, *b.sequences, *loop, *looped->sequences)) written = &b;
  if (!written) return 0;
  std::size_t unrolled = 0;
  for (const auto& b : bodies) {
    if (i >= b.body->size()) continue;
    const auto& n = (*b.body)[i];
    if (!n.is_loop() || n.times != loop->times || !flat(n) || !evenly_repeated(n) || n.body.size() != loop->body.size())
      continue;
    unroll(*b.body, i);
    ++unrolled;
  }
  return unrolled;
}

// A loop of k iterations of B where another count loops over m copies of B (B B′: the swaps to
// one neighbour, where the other count's go to two) is rolled again as k/m iterations of the m
// copies, iteration j of the copies taking every m-th of B's occurrences from the j-th.
void reroll(SampleNode& loop, std::size_t copies) {
  std::vector<SampleNode> body;
  for (std::size_t copy = 0; copy < copies; ++copy)
    for (const auto& step : loop.body) body.push_back(iteration(step, copy, copies));
  loop.body = std::move(body);
  loop.times /= static_cast<std::uint32_t>(copies);
  for (auto& c : loop.counts) c /= double(copies);
}

std::size_t reroll_at(const std::vector<GroupBody>& bodies, std::size_t i) {
  const SampleNode* wide = nullptr;
  const GroupBody* owner = nullptr;
  const auto rollable = [](const SampleNode& n) {
    return n.is_loop() && n.until_tag < 0 && flat(n) && evenly_repeated(n);
  };
  for (const auto& b : bodies)
    if (i < b.body->size() && rollable((*b.body)[i]) && (!wide || (*b.body)[i].body.size() > wide->body.size()))
      wide = &(*b.body)[i], owner = &b;
  if (!wide) return 0;
  std::size_t rerolled = 0;
  for (const auto& b : bodies) {
    if (i >= b.body->size() || !rollable((*b.body)[i])) continue;
    auto& n = (*b.body)[i];
    const std::size_t length = n.body.size(), copies = wide->body.size() / length;
    if (copies < 2 || copies * length != wide->body.size() || n.times % copies != 0) continue;
    SampleNode as_loop = n;
    as_loop.times = static_cast<std::uint32_t>(copies);
    if (!written_out(wide->body, 0, *owner->sequences, as_loop, *b.sequences)) continue;
    reroll(n, copies);
    ++rerolled;
  }
  return rerolled;
}

}  // namespace

std::size_t unroll_written_out_loops(const std::vector<GroupBody>& bodies) {
  std::size_t unrolled = 0;
  for (std::size_t i = 0;; ++i) {
    bool any = false;
    for (const auto& b : bodies) any = any || i < b.body->size();
    if (!any) return unrolled;
    unrolled += unroll_at(bodies, i) + reroll_at(bodies, i);
    const auto inner = loops_at(bodies, i);
    if (inner.size() >= 2) unrolled += unroll_written_out_loops(inner);
  }
}

}  // namespace augur::learn
